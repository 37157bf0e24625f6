// A tool command of the fixture pipelines: prints its JSON arguments back.
process.stdin.pipe(process.stdout);
