// The runner side of P8, in its own process so that its peak RSS is the runner's alone:
//   node p8-child.mjs run <baseURL> <apiKey> <runsRoot> <scenes>
//   node p8-child.mjs resume <baseURL> <apiKey> <runDir>
import { statSync } from "node:fs";
import { join } from "node:path";
import { builtPackage, now, root } from "./lib.mjs";

const [mode, baseURL, apiKey, target, scenes] = process.argv.slice(2);
const { createClient } = await builtPackage("core");
const { loadPipeline, planPipeline, runPipeline } = await builtPackage("runner");
const client = createClient({ baseURL, apiKey, pollIntervalMs: 20 });
const file = join(root, "bench", "p8-storyboard.yaml");
let firstEventMs;
const started = now();
const onEvent = () => {
  firstEventMs ??= now() - started;
};
let result;
if (mode === "run") {
  const pipeline = await loadPipeline(file);
  const inputs = { scenes: Number(scenes) };
  planPipeline(pipeline, { inputs });
  result = await runPipeline(pipeline, {
    client,
    inputs,
    runsRoot: target,
    cache: false,
    concurrency: 16,
    maxVideos: 16,
    onEvent,
  });
} else {
  result = await runPipeline(undefined, { client, resume: target, cache: false, onEvent });
}
const clips = result.steps.clips?.outputs;
process.stdout.write(
  `${JSON.stringify({
    status: result.status,
    error: result.error?.message,
    runDir: result.runDir,
    clips: Array.isArray(clips) ? clips.length : 0,
    journalBytes: statSync(join(result.runDir, "journal.jsonl")).size,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    firstEventMs,
    totalMs: now() - started,
  })}\n`,
);
