import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-partial-key-4242";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");

/** The NDJSON events of `--json`. */
function events(stdout: string): { type: string; [field: string]: unknown }[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.02 });
});
afterAll(() => simulator?.close());

const env = () => cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY });

describe("--allow-partial with a fan-out whose length is known before the run", () => {
  it("makes what fits (one 9-credit clip of two in 10 credits), then stops budget_reached (exit 3)", async () => {
    const work = await tempDir();
    try {
      const before = simulator.stats();
      const result = await runCli(
        [
          "run",
          STORYBOARD,
          "--input",
          "scenes=2",
          "--max-credits",
          "10",
          "--allow-partial",
          "--no-cache",
          "--json",
        ],
        { cwd: work.dir, env: env() },
      );
      expect(result.code, result.stderr).toBe(3);
      const after = simulator.stats();
      expect(after.videoJobs.created - before.videoJobs.created).toBe(1);
      const end = events(result.stdout).find((event) => event.type === "run.end") as unknown as {
        status: string;
        totals: { credits: number };
      };
      expect(end.status).toBe("budget_reached");
      expect(end.totals.credits).toBe(after.creditsCharged - before.creditsCharged);
      expect(end.totals.credits).toBe(9);
    } finally {
      await work.remove();
    }
  });

  it("without it, the same run is refused before anything is sent (exit 2)", async () => {
    const work = await tempDir();
    try {
      const before = simulator.stats();
      const result = await runCli(
        ["run", STORYBOARD, "--input", "scenes=2", "--max-credits", "10", "--no-cache"],
        { cwd: work.dir, env: env() },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("expected to cost 18 credits (clips: 2 × 9 = 18)");
      const after = simulator.stats();
      expect(after.videoJobs.created).toBe(before.videoJobs.created);
      expect(after.chatCompletions).toBe(before.chatCompletions);
    } finally {
      await work.remove();
    }
  });

  it("still refuses, before anything is sent, a budget below one clip", async () => {
    const work = await tempDir();
    try {
      const before = simulator.stats();
      const result = await runCli(
        ["run", STORYBOARD, "--input", "scenes=2", "--max-credits", "5", "--allow-partial"],
        { cwd: work.dir, env: env() },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('one item of "clips" is expected to cost 9 credits');
      expect(simulator.stats().chatCompletions).toBe(before.chatCompletions);
    } finally {
      await work.remove();
    }
  });
});
