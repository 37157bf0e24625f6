// Shared helpers of the root benchmarks: medians, alternating rounds, child-process timing,
// the result line every measure prints and the paths of the built packages.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Every measure of `pnpm bench`: its id (the prefix of the ids of the rows it prints), its
 * script, and the files that script runs beside it. The smoke test runs each script and
 * checks that every script of this folder is listed here.
 */
export const measures = [
  { id: "P1", script: "p1-sse.mjs", helpers: ["sse-server.mjs"] },
  { id: "P2", script: "p2-runner.mjs" },
  { id: "P3", script: "p3-polling.mjs" },
  { id: "P5", script: "p5-join.mjs" },
  { id: "P6", script: "p6-startup.mjs" },
  { id: "P8", script: "p8-memory.mjs", helpers: ["p8-child.mjs", "p8-storyboard.yaml"] },
  { id: "P9", script: "p9-batch.mjs", helpers: ["p9-child.mjs"] },
  { id: "P10", script: "p10-tail.mjs" },
];

/**
 * Smoke mode (`BENCH_SMOKE=1` or `--smoke`): every script runs once at a tiny size, to show it
 * still runs and prints its rows; its numbers mean nothing. CI runs the scripts this way.
 */
export const smoke = process.env.BENCH_SMOKE === "1" || process.argv.includes("--smoke");
// Child processes of a script (servers, P8's runner) inherit the mode.
if (smoke) process.env.BENCH_SMOKE = "1";

/**
 * A script's options: `--name=value` arguments over the full sizes, or over the tiny sizes in
 * smoke mode. Numbers stay numbers.
 * @example const { chunks, rounds } = benchOptions({ chunks: 100_000, rounds: 5 }, { chunks: 200, rounds: 1 });
 */
export function benchOptions(full, tiny) {
  const given = Object.fromEntries(
    process.argv
      .slice(2)
      .filter((argument) => argument.startsWith("--") && argument.includes("="))
      .map((argument) => argument.slice(2).split("=")),
  );
  const defaults = smoke ? { ...full, ...tiny } : full;
  return Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => {
      const text = given[name];
      if (text === undefined) return [name, value];
      return [name, typeof value === "number" ? Number(text) : text];
    }),
  );
}

/** Imports a package's built entry (run `pnpm build` first). */
export function builtPackage(name, entry = "dist/index.js") {
  return import(pathToFileURL(`${root}packages/${name}/${entry}`).href);
}

/** Resolves a dependency as the given workspace package sees it. */
export function dependencyOf(packageName, dependency) {
  const require = createRequire(`${root}packages/${packageName}/package.json`);
  return import(pathToFileURL(require.resolve(dependency)).href);
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const now = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Runs `ours` and `baseline` in turn `rounds` times (A B A B …, after one warm-up each) and
 * returns the medians and the median of the per-round ratios (pairing keeps the ratio
 * meaningful when a noisy machine's speed drifts).
 */
export async function alternate(rounds, ours, baseline, { warmup = 1 } = {}) {
  for (let i = 0; i < (smoke ? 0 : warmup); i++) {
    await ours();
    await baseline();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first so neither always runs on a warmer machine.
    if (i % 2 === 0) {
      a.push(await ours());
      b.push(await baseline());
    } else {
      b.push(await baseline());
      a.push(await ours());
    }
  }
  return { ours: median(a), baseline: median(b), ratio: median(a.map((x, i) => x / b[i])), a, b };
}

/**
 * Like `alternate` for any number of contenders: each round runs them all, in an order
 * rotated every round (so none always runs first or last), after `warmup` rounds. Returns
 * each one's median and, for every name but `ours`, the median of the per-round ratios of
 * `ours` to it.
 * @example const { medians, ratios } = await rotate(7, { ours, bare, durable });
 */
export async function rotate(rounds, contenders, { warmup = 1, ours = "ours" } = {}) {
  const names = Object.keys(contenders);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < (smoke ? 0 : warmup); i++) for (const name of names) await contenders[name]();
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length];
      times[name].push(await contenders[name]());
    }
  }
  const medians = Object.fromEntries(names.map((name) => [name, median(times[name])]));
  const ratios = Object.fromEntries(
    names
      .filter((name) => name !== ours)
      .map((name) => [name, median(times[ours].map((x, i) => x / times[name][i]))]),
  );
  return { medians, ratios, times };
}

/** Wall milliseconds of one child process from spawn to exit (throws on a non-zero exit). */
export function timeProcess(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = now();
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], ...options });
    let stderr = "";
    child.stderr?.on("data", (piece) => {
      stderr += piece;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = now() - started;
      if (code === 0) resolve(ms);
      else
        reject(
          new Error(`${command} ${args.join(" ")} exited with ${code}: ${stderr.slice(-500)}`),
        );
    });
  });
}

/**
 * Prints the result lines run-all.mjs reads: `{ id, measure, ours, baseline, ratio, goal }`.
 * The goal is met when ratio ≤ goal, or ratio ≥ goal with `lowerIsBetter: false`; a null
 * goal marks a row shown for comparison.
 */
export function report(rows) {
  for (const row of rows) {
    const met =
      row.goal === null || row.goal === undefined
        ? null
        : row.lowerIsBetter === false
          ? row.ratio >= row.goal
          : row.ratio <= row.goal;
    process.stdout.write(`BENCH ${JSON.stringify({ ...row, met })}\n`);
  }
}

/**
 * The peak resident memory of this process's own program, in MB. On Linux this is `VmHWM`
 * from /proc/self/status: `getrusage`'s maxRSS (`process.resourceUsage().maxRSS`) also
 * counts the memory of the parent at the moment it forked this process (the kernel carries
 * the forked copy's high-water mark over `exec`), so a child started by a bench script that
 * serves the simulator would report the simulator's memory as its own. Elsewhere, maxRSS.
 */
export function peakRssMB() {
  try {
    const line = readFileSync("/proc/self/status", "utf8")
      .split("\n")
      .find((entry) => entry.startsWith("VmHWM:"));
    if (line) return Number(line.split(/\s+/)[1]) / 1024;
  } catch {}
  return process.resourceUsage().maxRSS / 1024;
}
