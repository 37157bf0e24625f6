import { spawn } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { constants, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setOutput } from "@actions/core";
import { ActionInputError, readActionInputs } from "./action-inputs.js";
import { logLine } from "./log-line.js";
import { artifactName, cliEnvironment, runArguments } from "./run-arguments.js";
import { parseEvents } from "./run-digest.js";

/** The CLI built beside this script (the action installs and builds its own checkout). */
const CLI = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));

/**
 * The action's run step: `reelsmith run PIPELINE --json` with the action's inputs (or
 * `reelsmith batch … --inputs FILE` / `resume BATCH_DIR` for a batch), the events written to a
 * file (and a line per step, or per row, in the log), stderr passed through and kept. Sets the
 * outputs `run-dir`, `batch-dir`, `upload` (the directory to upload), `exit-code`, `events`,
 * `stderr` and `artifact`, and ends with
 * the CLI's exit code. SIGINT/SIGTERM (a cancelled job) are passed on so the run settles.
 */
async function main(): Promise<void> {
  const inputs = readActionInputs(process.env);
  const cwd = path.resolve(process.env.GITHUB_WORKSPACE ?? process.cwd(), inputs.workingDirectory);
  const scratch = await mkdtemp(path.join(process.env.RUNNER_TEMP ?? tmpdir(), "reelsmith-"));
  const eventsFile = path.join(scratch, "events.ndjson");
  const stderrFile = path.join(scratch, "stderr.log");
  setOutput("events", eventsFile);
  setOutput("stderr", stderrFile);
  let args: string[];
  try {
    args = runArguments(inputs, {
      exists: (file) => existsSync(path.resolve(cwd, file)),
      isBatch: (dir) => existsSync(path.resolve(cwd, dir, "batch.jsonl")),
    });
  } catch (error) {
    if (!(error instanceof ActionInputError)) throw error;
    createWriteStream(stderrFile).end(`error: ${error.message}\n`);
    process.stdout.write(`::error title=reelsmith::${error.message}\n`);
    setOutput("exit-code", "2");
    process.exitCode = 2;
    return;
  }
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: cliEnvironment(inputs, process.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  const events = createWriteStream(eventsFile);
  const stderr = createWriteStream(stderrFile);
  let runDir = "";
  let batchDir = "";
  const lines = createInterface({ input: child.stdout });
  lines.on("line", (line) => {
    events.write(`${line}\n`);
    for (const event of parseEvents(line)) {
      // A batch's rows' runs carry `row`: the batch directory holds them all.
      if (event.type === "run.start" && typeof event.runDir === "string" && event.row === undefined)
        runDir = event.runDir;
      if (event.type === "batch.start" && typeof event.batchDir === "string")
        batchDir = event.batchDir;
      const text = logLine(event);
      if (text) process.stdout.write(`${text}\n`);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr.write(chunk);
    process.stderr.write(chunk);
  });
  const code = await new Promise<number>((resolve) => {
    child.on("close", (exitCode, signal) =>
      resolve(exitCode ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)),
    );
    child.on("error", (error) => {
      stderr.write(`error: could not start reelsmith: ${error.message}\n`);
      resolve(1);
    });
  });
  await Promise.all([
    new Promise((resolve) => events.end(resolve)),
    new Promise((resolve) => stderr.end(resolve)),
  ]);
  setOutput("exit-code", String(code));
  setOutput("run-dir", runDir);
  setOutput("batch-dir", batchDir);
  const upload = batchDir || runDir;
  setOutput("upload", upload);
  if (upload) {
    setOutput(
      "artifact",
      artifactName({
        input: inputs.artifactName,
        runDir: upload,
        ...(process.env.GITHUB_RUN_ATTEMPT ? { attempt: process.env.GITHUB_RUN_ATTEMPT } : {}),
      }),
    );
  }
  process.exitCode = code;
}

await main();
