// P3: 50 video jobs, 5 in flight, against the time-scaled simulator: wall time vs the ideal
// ⌈50/5⌉ × job time, and polls per job vs job time / poll interval + 2. The client polls as it
// does against a real service (the service's hints, the spec's 5 s interval scaled by the
// simulator's time scale); no clip is downloaded.
import { benchOptions, builtPackage, dependencyOf, now, report } from "./lib.mjs";

const { jobs, inFlight, timeScale } = benchOptions(
  { jobs: 50, inFlight: 5, timeScale: 0.05 },
  { jobs: 4, inFlight: 2, timeScale: 0.005 },
);
const model = "reel-video-1";
const seconds = 4;
const { createClient } = await builtPackage("core");
const { startSimulator } = await builtPackage("simulator");
const { default: pLimit } = await dependencyOf("runner", "p-limit");

// The simulator's documented timing: (500 ms pending + 4500 ms processing) per second of
// video × the model's speed factor (1 for reel-video-1) × the time scale.
const jobMs = seconds * (500 + 4500) * 1 * timeScale;
// The spec's recommended interval (5 s), on the simulator's clock.
const pollIntervalMs = 5000 * timeScale;

const simulator = await startSimulator({ timeScale });
const client = createClient({ baseURL: simulator.url, apiKey: simulator.apiKey, pollIntervalMs });
try {
  const limit = pLimit(inFlight);
  const polls = [];
  const started = now();
  await Promise.all(
    Array.from({ length: jobs }, (_, n) =>
      limit(async () => {
        let count = 0;
        await client.videos.createAndWait(
          { model, prompt: `job ${n}`, seconds: String(seconds), size: "720x1280" },
          { onUpdate: (_job, info) => (count = info.polls) },
        );
        polls.push(count);
      }),
    ),
  );
  const wall = now() - started;
  const ideal = Math.ceil(jobs / inFlight) * jobMs;
  const maxPolls = Math.max(...polls);
  const pollGoal = jobMs / pollIntervalMs + 2;
  report([
    {
      id: "P3a",
      measure: `${jobs} video jobs, ${inFlight} in flight (job ${jobMs} ms): wall vs ideal`,
      ours: `${wall.toFixed(0)} ms`,
      baseline: `${ideal.toFixed(0)} ms`,
      ratio: wall / ideal,
      goal: 1.1,
    },
    {
      id: "P3b",
      measure: `polls per job (most of any job) vs job time / interval + 2`,
      ours: `${maxPolls} max, ${(polls.reduce((a, b) => a + b, 0) / polls.length).toFixed(1)} mean`,
      baseline: `${pollGoal.toFixed(1)}`,
      ratio: maxPolls / pollGoal,
      goal: 1,
    },
  ]);
} finally {
  await simulator.close();
}
