// Unpacks the headless Chromium shipped inside @sparticuz/chromium once per machine, safely
// when several processes ask at the same time (turbo runs the report, studio and cli tests
// at once, and each may be the first on a fresh machine).
//
// @sparticuz/chromium's own `executablePath()` inflates into `tmpdir()` and returns
// `tmpdir()/chromium` as soon as that file exists, while another process may still be writing
// it: the second launch then fails with `spawn ETXTBSY`. Here each process inflates into a
// staging directory of its own and renames it, whole, to a versioned directory; a rename of a
// directory is atomic, so a process either finds the finished directory or loses the race and
// throws its own copy away. Plain JavaScript so that a test can run it in child processes.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import chromium from "@sparticuz/chromium";

// The package exports no package.json: read it beside its entry point (build/cjs/index.cjs).
const entry = createRequire(import.meta.url).resolve("@sparticuz/chromium");
const { version } = JSON.parse(
  readFileSync(join(dirname(entry), "..", "..", "package.json"), "utf8"),
);

/** The directory Chromium lives in once unpacked, under the temp directory of this moment. */
export function chromiumDirectory() {
  return join(tmpdir(), `reelsmith-chromium-${version}`);
}

/** @type {Promise<string> | undefined} */
let inProcess;

/**
 * The path of the unpacked `chromium` binary, unpacking it first when no process has yet.
 * @returns {Promise<string>}
 */
export function unpackChromium() {
  const executable = join(chromiumDirectory(), "chromium");
  if (existsSync(executable)) return Promise.resolve(executable);
  // The unpacking points TMPDIR at its staging directory for a moment: one at a time here.
  inProcess ??= unpackOnce().finally(() => {
    inProcess = undefined;
  });
  return inProcess;
}

async function unpackOnce() {
  const root = tmpdir();
  const target = chromiumDirectory();
  if (existsSync(join(target, "chromium"))) return join(target, "chromium");
  const staging = await mkdtemp(join(root, `reelsmith-chromium-${version}-unpacking-`));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await chromium.executablePath();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  const unpacked = await readdir(staging);
  if (!unpacked.includes("chromium")) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`@sparticuz/chromium unpacked no chromium binary into ${staging}`);
  }
  try {
    await rename(staging, target);
  } catch (error) {
    // Another process renamed its copy first: use that one, drop ours.
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    await rm(staging, { recursive: true, force: true });
  }
  return join(target, "chromium");
}
