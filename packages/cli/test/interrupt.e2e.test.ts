import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, startCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-interrupt-key-55555";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.5 });
  work = await tempDir();
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

describe("Ctrl-C during a run (built CLI)", () => {
  it("stops submitting, settles, prints how to resume and exits 130", async () => {
    const run = startCli(
      [
        "run",
        STORYBOARD,
        "--input",
        "scenes=6",
        "--max-videos",
        "2",
        "--base-url",
        simulator.url,
        "--api-key",
        API_KEY,
      ],
      { cwd: work.dir },
    );
    await run.waitFor((output) => output.stdout.includes("submitted"), 60_000);
    run.child.kill("SIGINT");
    const result = await run.done;
    expect(result.code).toBe(130);
    const runDir = /run storyboard: \d+ steps, directory (\S+)/.exec(result.stdout)?.[1];
    expect(runDir).toBeDefined();
    expect(result.stdout).toContain(`reelsmith resume ${runDir}`);
    expect(result.stdout).toMatch(/run cancelled/);
    expect(simulator.stats().videoJobs.created).toBeLessThan(6);
    // The stopped step's row says what it spent, as the total does (the ledger's figures).
    const row = (name: string) =>
      result.stdout
        .split("\n")
        .find((line) => line.startsWith(`${name} `))
        ?.split(/ {2,}/);
    const header = row("step") ?? [];
    const spent = header.indexOf("spent");
    expect(row("clips")?.[1]).toMatch(/^cancelled \d+\/6$/);
    expect(row("clips")?.[spent]).toBe(row("total")?.[spent]);
    expect(Number(row("total")?.[spent])).toBe(simulator.stats().creditsCharged);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
    // An interrupted run still gets its report, saying so.
    const report = await readFile(path.join(work.dir, String(runDir), "report.html"), "utf8");
    expect(report).toContain('id="run-status">cancelled<');
    expect(report).not.toContain(API_KEY);
  });
});
