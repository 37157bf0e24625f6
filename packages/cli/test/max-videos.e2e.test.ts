import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cleanEnv, EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-max-videos-key";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.05 });
  work = await tempDir("reelsmith-max-videos-");
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

it("--max-videos 1 holds the run to one video job at a time at the service", async () => {
  const env = cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY });
  const result = await runCli(
    ["run", STORYBOARD, "--input", "scenes=4", "--max-videos", "1", "--no-cache"],
    { cwd: work.dir, env },
  );
  expect(result.code, result.stderr).toBe(0);
  const stats = simulator.stats();
  expect(stats.videoJobs.created).toBe(4);
  expect(stats.jobsInFlight).toBe(0);
  expect(stats.peakConcurrentJobs).toBe(1);
}, 300_000);
