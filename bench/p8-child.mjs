// The runner side of P8, in its own process so that its peak RSS is the runner's alone:
//   node p8-child.mjs run <baseURL> <apiKey> <runsRoot> <scenes> [killAfterItems]
//   node p8-child.mjs resume <baseURL> <apiKey> <runDir>
// `run` with killAfterItems SIGKILLs itself once that many clips have ended (a run killed
// halfway). `resume` stops the resumed run once it is under way (its first new unit started:
// its step.request)
// and reports how long that took from the resume's start; its end is not the measure.
import { statSync } from "node:fs";
import { join } from "node:path";
import { builtPackage, now, peakRssMB, root, smoke } from "./lib.mjs";

const [mode, baseURL, apiKey, target, scenes, killAfter] = process.argv.slice(2);
const { createClient } = await builtPackage("core");
const { loadPipeline, planPipeline, runPipeline } = await builtPackage("runner");
const client = createClient({ baseURL, apiKey, pollIntervalMs: 20 });
// Units at once; fewer in smoke mode, where a run of a few scenes must still leave some
// never started when it is killed halfway.
const parallel = smoke ? 4 : 16;
const file = join(root, "bench", "p8-storyboard.yaml");
const started = now();
let itemsEnded = 0;
let result;
if (mode === "run") {
  const pipeline = await loadPipeline(file);
  const inputs = { scenes: Number(scenes) };
  planPipeline(pipeline, { inputs });
  const onEvent =
    killAfter === undefined
      ? undefined
      : (event) => {
          if (event.type === "item.end" && ++itemsEnded >= Number(killAfter))
            process.kill(process.pid, "SIGKILL");
        };
  result = await runPipeline(pipeline, {
    client,
    inputs,
    runsRoot: target,
    cache: false,
    concurrency: parallel,
    slots: { video: parallel },
    ...(onEvent ? { onEvent } : {}),
  });
} else {
  let underWayMs;
  let runStartMs;
  const stop = new AbortController();
  result = await runPipeline(undefined, {
    client,
    resume: target,
    cache: false,
    concurrency: parallel,
    slots: { video: parallel },
    stopSignal: stop.signal,
    onEvent: (event) => {
      if (event.type === "run.start") runStartMs ??= now() - started;
      // A unit that runs (not one taken from the journal) says what it asks for first.
      if (event.type === "step.request" && underWayMs === undefined) {
        underWayMs = now() - started;
        stop.abort();
      }
    },
  });
  process.stdout.write(
    `${JSON.stringify({ status: result.status, underWayMs, runStartMs, maxRssMB: peakRssMB(), rusageMB: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
  process.exit(0);
}
const clips = result.steps.clips?.outputs;
process.stdout.write(
  `${JSON.stringify({
    status: result.status,
    error: result.error?.message,
    runDir: result.runDir,
    clips: Array.isArray(clips) ? clips.length : 0,
    journalBytes: statSync(join(result.runDir, "journal.jsonl")).size,
    maxRssMB: peakRssMB(),
    rusageMB: process.resourceUsage().maxRSS / 1024,
    totalMs: now() - started,
  })}\n`,
);
// Done: idle keep-alive connections to the service would hold the process open for seconds.
process.exit(0);
