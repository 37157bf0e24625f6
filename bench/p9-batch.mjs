// P9: a 100-row batch (each row a 2-scene storyboard of P8's pipeline: a chat, two clips, a
// join) against the time-scaled simulator, the runner in a child process of its own:
//   P9a  the batch's wall time, rows one at a time (--parallel 1), against the sum of the
//        same rows run one by one with runPipeline: what the batch itself costs (its
//        journal, batch.json, the rows' checks and plan) (goal ≤ 1.1×);
//   P9b  the batch at --parallel 4 against the same sum (shown: what running rows at once
//        gains on this machine);
//   P9c  the batch's peak RSS against P8a's 200 MB (the 5,000-scene run's goal; measured
//        189–227 MB): a batch must not hold more than a feature-length run (goal ≤ 1×).
// Clips: one tiny real MP4 served for every job (the simulator's clipFile), as in P8.
// Times are medians over --rounds (the three rotated each round).
//   node bench/p9-batch.mjs [--rows=100] [--scenes=2] [--rounds=2]
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { benchOptions, builtPackage, median, report, rotate } from "./lib.mjs";

const options = benchOptions(
  { rows: 100, scenes: 2, rounds: 2 },
  { rows: 3, scenes: 1, rounds: 1 },
);
const { synthesizeClip } = await builtPackage("media", "dist/synthesize-entry.js");
const { startSimulator } = await builtPackage("simulator");
const work = await mkdtemp(path.join(tmpdir(), "reelsmith-bench-p9-"));
const child = fileURLToPath(new URL("./p9-child.mjs", import.meta.url));
const runChild = async (...childArgs) => {
  const { stdout } = await promisify(execFile)(process.execPath, [child, ...childArgs], {
    maxBuffer: 1 << 20,
  });
  const result = JSON.parse(stdout.trim().split("\n").pop());
  if (result.status !== "succeeded" || result.succeeded !== options.rows)
    throw new Error(`${childArgs[0]}: ${result.status}, ${result.succeeded} rows succeeded`);
  return result;
};
let simulator;
try {
  const clipFile = path.join(work, "clip.mp4");
  await synthesizeClip({ output: clipFile, seconds: 1, size: "720x480", text: "scene" });
  simulator = await startSimulator({ timeScale: 0.001, clipFile });
  const service = [simulator.url, simulator.apiKey];
  const rowsFile = path.join(work, "rows.jsonl");
  const rows = Array.from({ length: options.rows }, (_, index) =>
    JSON.stringify({ id: `row-${String(index + 1).padStart(3, "0")}`, scenes: options.scenes }),
  );
  await writeFile(rowsFile, `${rows.join("\n")}\n`);
  // The three in an order rotated every round (the machine's load drifts), each in a runs
  // folder of its own; the ratios are the medians of the per-round ratios.
  let round = 0;
  const rss = { rows: 0, b1: 0, b4: 0 };
  const contender =
    (name, mode, ...extra) =>
    async () => {
      const result = await runChild(
        mode,
        ...service,
        path.join(work, `${name}-${round++}`),
        rowsFile,
        ...extra,
      );
      rss[name] = Math.max(rss[name], result.maxRssMB);
      return result.totalMs;
    };
  const { medians, times } = await rotate(
    options.rounds,
    {
      serial: contender("b1", "batch", "1"),
      oneByOne: contender("rows", "rows"),
      parallel: contender("b4", "batch", "4"),
    },
    { warmup: 0, ours: "serial" },
  );
  // Each round's times, for a reader of a noisy run (stderr: run-all reads stdout).
  process.stderr.write(`P9 rounds (ms): ${JSON.stringify(times)}\n`);
  const ratioTo = (name) => median(times[name].map((ms, index) => ms / times.oneByOne[index]));
  const serial = { totalMs: medians.serial, maxRssMB: rss.b1 };
  const parallel = { totalMs: medians.parallel, maxRssMB: rss.b4 };
  const oneByOne = { totalMs: medians.oneByOne, maxRssMB: rss.rows };
  const peak = Math.max(serial.maxRssMB, parallel.maxRssMB);
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  report([
    {
      id: "P9a",
      measure: `${options.rows}-row batch, rows one at a time, vs its rows run one by one`,
      ours: seconds(serial.totalMs),
      baseline: `${seconds(oneByOne.totalMs)} (sum of ${options.rows} runs)`,
      ratio: ratioTo("serial"),
      goal: 1.1,
    },
    {
      id: "P9b",
      measure: `the same batch, 4 rows at once, vs the same sum`,
      ours: seconds(parallel.totalMs),
      baseline: `${seconds(oneByOne.totalMs)} (sum)`,
      ratio: ratioTo("parallel"),
      goal: null,
    },
    {
      id: "P9c",
      measure: `${options.rows}-row batch: peak RSS vs P8a's 200 MB (5,000 scenes)`,
      ours: `${peak.toFixed(0)} MB (parallel 1: ${serial.maxRssMB.toFixed(0)} MB, 4: ${parallel.maxRssMB.toFixed(0)} MB; one by one ${oneByOne.maxRssMB.toFixed(0)} MB)`,
      baseline: "200 MB",
      ratio: peak / 200,
      goal: 1,
    },
  ]);
} finally {
  await simulator?.close();
  await rm(work, { recursive: true, force: true });
}
