import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-kept-service-1234567890";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.01 });
  work = await tempDir();
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

describe("a run keeps its directory and its service (built CLI)", () => {
  it("refuses run --run-dir into a run, and resume on an unreachable service, touching nothing", async () => {
    const runDir = path.join(work.dir, "out");
    const connection = ["--base-url", simulator.url, "--api-key", API_KEY];
    const first = await runCli(
      ["run", STORYBOARD, "--input", "scenes=2", "--run-dir", runDir, ...connection],
      { cwd: work.dir },
    );
    expect(first.code).toBe(0);
    const journal = await readFile(path.join(runDir, "journal.jsonl"), "utf8");
    const runJson = await readFile(path.join(runDir, "run.json"), "utf8");

    const again = await runCli(["run", STORYBOARD, "--run-dir", runDir, ...connection], {
      cwd: work.dir,
    });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already holds a run");
    expect(again.stderr).toContain(`reelsmith resume ${runDir}`);

    await simulator.close();
    const resumed = await runCli(["resume", runDir, "--api-key", API_KEY], { cwd: work.dir });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(`the run's service at ${simulator.url} cannot be reached`);
    expect(resumed.stderr).not.toContain("built-in simulator");
    expect(await readFile(path.join(runDir, "journal.jsonl"), "utf8")).toBe(journal);
    expect(await readFile(path.join(runDir, "run.json"), "utf8")).toBe(runJson);
  });
});
