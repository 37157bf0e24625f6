// P8: a 500-scene storyboard (plan + run) against the time-scaled simulator: the runner's
// peak RSS, the journal's growth (bytes per scene at 500 vs 100 scenes) and how soon a
// resume of the finished 500-scene run is under way. The simulator (another process's work
// in real life) runs here; the runner runs in a child process whose peak RSS is measured.
// Clips: one tiny real MP4 served for every job (the simulator's clipFile), so 500 jobs do
// not mean 500 renders; each clip is still downloaded, probed and joined.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { builtPackage, report } from "./lib.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const scenes = Number(args.scenes ?? 500);
const small = Math.max(1, Math.round(scenes / 5));
const media = await builtPackage("media");
const { startSimulator } = await builtPackage("simulator");
const work = await mkdtemp(path.join(tmpdir(), "reelsmith-bench-p8-"));
const child = fileURLToPath(new URL("./p8-child.mjs", import.meta.url));
const runChild = async (...childArgs) => {
  const { stdout } = await promisify(execFile)(process.execPath, [child, ...childArgs], {
    maxBuffer: 1 << 20,
  });
  const result = JSON.parse(stdout.trim().split("\n").pop());
  if (result.status !== "succeeded")
    throw new Error(`${childArgs[0]}: ${result.status} ${result.error}`);
  return result;
};
let simulator;
try {
  const clipFile = path.join(work, "clip.mp4");
  await media.synthesizeClip({ output: clipFile, seconds: 1, size: "720x480", text: "scene" });
  simulator = await startSimulator({ timeScale: 0.001, clipFile });
  const service = [simulator.url, simulator.apiKey];
  const few = await runChild("run", ...service, path.join(work, "runs-small"), String(small));
  const many = await runChild("run", ...service, path.join(work, "runs"), String(scenes));
  const resumed = await runChild("resume", ...service, many.runDir);
  if (many.clips !== scenes || few.clips !== small) {
    throw new Error(`expected ${scenes} and ${small} clips, got ${many.clips} and ${few.clips}`);
  }
  const perScene = (run, n) => run.journalBytes / n;
  report([
    {
      id: "P8a",
      measure: `${scenes}-scene storyboard, plan + run: runner peak RSS (MB) vs 150 MB`,
      ours: `${many.maxRssMB.toFixed(0)} MB (${(many.totalMs / 1000).toFixed(1)} s)`,
      baseline: "150 MB",
      ratio: many.maxRssMB / 150,
      goal: 1,
    },
    {
      id: "P8b",
      measure: `journal bytes per scene, ${scenes} vs ${small} scenes (linear growth)`,
      ours: `${perScene(many, scenes).toFixed(0)} B (${(many.journalBytes / 1024).toFixed(0)} KiB)`,
      baseline: `${perScene(few, small).toFixed(0)} B`,
      ratio: perScene(many, scenes) / perScene(few, small),
      goal: 1.1,
    },
    {
      id: "P8c",
      measure: `resume of the finished ${scenes}-scene run: first event (s) vs 1 s`,
      ours: `${(resumed.firstEventMs / 1000).toFixed(2)} s (done in ${(resumed.totalMs / 1000).toFixed(1)} s)`,
      baseline: "1 s",
      ratio: resumed.firstEventMs / 1000,
      goal: 1,
    },
  ]);
} finally {
  await simulator?.close();
  await rm(work, { recursive: true, force: true });
}
