// The runner side of P9, in its own process so that its peak RSS is the runner's alone:
//   node p9-child.mjs batch <baseURL> <apiKey> <runsRoot> <rowsFile> <parallel>
//   node p9-child.mjs rows <baseURL> <apiKey> <runsRoot> <rowsFile>
// `batch` runs the rows file with runBatch; `rows` runs the same rows one by one with
// runPipeline (a shell loop's work, without its process starts) and sums their times.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { builtPackage, now, peakRssMB, root } from "./lib.mjs";

const [mode, baseURL, apiKey, runsRoot, rowsFile, parallel] = process.argv.slice(2);
const { createClient } = await builtPackage("core");
const { loadPipeline, runPipeline } = await builtPackage("runner");
const { runBatch } = await builtPackage("runner", "dist/batch-entry.js");
const client = createClient({ baseURL, apiKey, pollIntervalMs: 20 });
const file = join(root, "bench", "p8-storyboard.yaml");
// Each row's own run: its clips one or two at a time, as the batch gives each row.
const perRun = { cache: false, concurrency: 4, slots: { video: 4 } };
const started = now();
let result;
if (mode === "batch") {
  const batch = await runBatch(file, rowsFile, {
    client,
    runsRoot,
    parallel: Number(parallel),
    ...perRun,
  });
  result = {
    status: batch.status,
    succeeded: batch.rows.filter((row) => row.status === "succeeded").length,
    totalMs: now() - started,
  };
} else {
  const pipeline = await loadPipeline(file);
  const rows = readFileSync(rowsFile, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
  let sumMs = 0;
  let succeeded = 0;
  for (const { id: _id, ...inputs } of rows) {
    const rowStarted = now();
    const run = await runPipeline(pipeline, { client, inputs, runsRoot, ...perRun });
    sumMs += now() - rowStarted;
    if (run.status === "succeeded") succeeded += 1;
  }
  result = {
    status: succeeded === rows.length ? "succeeded" : "failed",
    succeeded,
    totalMs: sumMs,
  };
}
process.stdout.write(`${JSON.stringify({ ...result, maxRssMB: peakRssMB() })}\n`);
// Done: idle keep-alive connections to the service would hold the process open for seconds.
process.exit(0);
