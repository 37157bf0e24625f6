// P8: a feature-length storyboard (5,000 scenes by default: plan + run) against the
// time-scaled simulator, the runner in a child process of its own:
//   P8a  the runner's peak RSS over the whole 5,000-scene run (goal ≤ 180 MB, so that it holds on a busy machine);
//   P8b  journal bytes per scene at 500, 1,000 and 5,000 scenes (goal: flat, the largest
//        size's bytes per scene ≤ 1.1× the smallest's);
//   P8c  a 5,000-scene run SIGKILLed halfway (once half its clips have ended), then resumed:
//        the time from the resume's start (runPipeline called; module loading is P6's) until
//        the resumed run is under way: run.resume journaled, which the run.start event
//        follows (goal ≤ 1 s);
//   P8d  the same resume until its first new unit starts (its step.request; the made half's
//        files are checked first), shown beside it. The resume is stopped there.
// Clips: one tiny real MP4 served for every job (the simulator's clipFile), so 5,000 jobs do
// not mean 5,000 renders; each clip is still downloaded, probed and joined.
//   node bench/p8-memory.mjs [--scenes=5000] [--sizes=500,1000]
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { benchOptions, builtPackage, report } from "./lib.mjs";

// In smoke mode enough scenes that the run killed halfway leaves units never started (the
// child runs 4 at once then, 16 otherwise), so the resume has a new one to start.
const options = benchOptions({ scenes: 5000, sizes: "500,1000" }, { scenes: 16, sizes: "4" });
const scenes = options.scenes;
const sizes = options.sizes.split(",").map(Number);
const { synthesizeClip } = await builtPackage("media", "dist/synthesize-entry.js");
const { startSimulator } = await builtPackage("simulator");
const work = await mkdtemp(path.join(tmpdir(), "reelsmith-bench-p8-"));
const child = fileURLToPath(new URL("./p8-child.mjs", import.meta.url));
const runChild = async (...childArgs) => {
  const { stdout } = await promisify(execFile)(process.execPath, [child, ...childArgs], {
    maxBuffer: 1 << 20,
  });
  const result = JSON.parse(stdout.trim().split("\n").pop());
  if (!["succeeded", "cancelled"].includes(result.status))
    throw new Error(`${childArgs[0]}: ${result.status} ${result.error}`);
  return result;
};
/** Runs a child that kills itself; resolves with the run directory it left. */
const killedChild = async (...childArgs) => {
  const runsRoot = childArgs[3];
  await promisify(execFile)(process.execPath, [child, ...childArgs]).then(
    () => {
      throw new Error("the run meant to be killed halfway finished");
    },
    (error) => {
      if (error.signal !== "SIGKILL") throw error;
    },
  );
  const [name] = (await readdir(runsRoot)).filter((entry) => !entry.startsWith("."));
  return path.join(runsRoot, name);
};
let simulator;
try {
  const clipFile = path.join(work, "clip.mp4");
  await synthesizeClip({ output: clipFile, seconds: 1, size: "720x480", text: "scene" });
  simulator = await startSimulator({ timeScale: 0.001, clipFile });
  const service = [simulator.url, simulator.apiKey];
  const runs = new Map();
  for (const size of [...sizes, scenes]) {
    const run = await runChild("run", ...service, path.join(work, `runs-${size}`), String(size));
    if (run.clips !== size) throw new Error(`expected ${size} clips, got ${run.clips}`);
    runs.set(size, run);
  }
  const halfway = Math.floor(scenes / 2);
  const killedDir = await killedChild(
    "run",
    ...service,
    path.join(work, "runs-killed"),
    String(scenes),
    String(halfway),
  );
  const resumed = await runChild("resume", ...service, killedDir);
  const many = runs.get(scenes);
  const perScene = (size) => runs.get(size).journalBytes / size;
  const smallest = Math.min(...sizes, scenes);
  report([
    {
      id: "P8a",
      measure: `${scenes}-scene storyboard, plan + run: runner peak RSS vs 180 MB`,
      ours: `${many.maxRssMB.toFixed(0)} MB (${(many.totalMs / 1000).toFixed(1)} s; ${sizes.map((size) => `${size}: ${runs.get(size).maxRssMB.toFixed(0)} MB`).join(", ")})`,
      baseline: "180 MB",
      ratio: many.maxRssMB / 180,
      goal: 1,
    },
    {
      id: "P8b",
      measure: `journal bytes per scene, ${scenes} vs ${smallest} scenes (flat)`,
      ours: `${perScene(scenes).toFixed(0)} B (${[...sizes].map((size) => `${size}: ${perScene(size).toFixed(0)} B`).join(", ")})`,
      baseline: `${perScene(smallest).toFixed(0)} B`,
      ratio: perScene(scenes) / perScene(smallest),
      goal: 1.1,
    },
    {
      id: "P8c",
      measure: `resume of a ${scenes}-scene run killed halfway: run.resume journaled (run.start said) vs 1 s`,
      ours: `${(resumed.runStartMs / 1000).toFixed(2)} s (${resumed.maxRssMB.toFixed(0)} MB)`,
      baseline: "1 s",
      ratio: resumed.runStartMs / 1000,
      goal: 1,
    },
    {
      id: "P8d",
      measure: `the same resume: its first new unit started (${halfway} made clips checked first) vs 1 s`,
      ours: `${(resumed.underWayMs / 1000).toFixed(2)} s`,
      baseline: "1 s",
      ratio: resumed.underWayMs / 1000,
      goal: null,
    },
  ]);
} finally {
  await simulator?.close();
  await rm(work, { recursive: true, force: true });
}
