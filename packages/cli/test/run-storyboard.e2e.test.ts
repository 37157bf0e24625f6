import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { probe } from "@reelsmith/media";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, hasEscapeCodes, readTree, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-Very-Secret-Key-0123456789";
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

describe("reelsmith run examples/storyboard (built CLI, external simulator)", () => {
  let runDir = "";

  it("produces final.mp4 as long as its scenes, in plain text without escape codes, ending with the path", async () => {
    const result = await runCli(
      ["run", STORYBOARD, "--input", "scenes=3", "--base-url", simulator.url, "--api-key", API_KEY],
      { cwd: work.dir },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(hasEscapeCodes(result.stdout)).toBe(false);
    const lastLine = result.stdout.trimEnd().split("\n").at(-1) ?? "";
    const finalPath = /video\s+(\S+final\.mp4)$/.exec(lastLine)?.[1];
    expect(finalPath, lastLine).toBeDefined();
    runDir = path.dirname(path.resolve(work.dir, finalPath!));
    expect(path.relative(path.join(work.dir, "runs"), runDir)).toMatch(/^\d{8}-\d{6}-storyboard$/);

    const clips = (await readdir(path.join(runDir, "clips")))
      .filter((f) => f.endsWith(".mp4"))
      .sort();
    expect(clips).toEqual(["scene-0.mp4", "scene-1.mp4", "scene-2.mp4"]);
    let sum = 0;
    for (const clip of clips) sum += (await probe(path.join(runDir, "clips", clip))).duration;
    const final = await probe(path.join(runDir, "final.mp4"));
    expect(sum).toBeGreaterThan(5);
    expect(Math.abs(final.duration - sum)).toBeLessThan(0.25);
    expect(simulator.stats().videoJobs.created).toBe(3);
    expect(result.stdout).toContain("contact-sheet.png");
    // The run wrote its report and said where, before the outputs.
    const relativeRun = path.relative(work.dir, runDir);
    expect(result.stdout).toContain(`report: ${relativeRun}/report.html`);
    const report = await readFile(path.join(runDir, "report.html"), "utf8");
    expect(report.match(/<article class="card/g)).toHaveLength(3);
  });

  it("reelsmith report rebuilds the page at any time, and refuses a directory that is no run", async () => {
    const relativeRun = path.relative(work.dir, runDir);
    await rm(path.join(runDir, "report.html"));
    const rebuilt = await runCli(["report", relativeRun], { cwd: work.dir });
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toBe(`${relativeRun}/report.html\n`);
    expect(await readFile(path.join(runDir, "report.html"), "utf8")).toContain(
      '<svg class="gantt"',
    );
    const wrong = await runCli(["report", "clips"], { cwd: runDir });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("clips is not a reelsmith run directory");
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  });

  it("never shows the API key: not in stdout, stderr, the run directories or the cache", async () => {
    const failing = await runCli(
      ["run", STORYBOARD, "--base-url", simulator.url, "--api-key", `${API_KEY}-wrong`],
      { cwd: work.dir },
    );
    expect(failing.code).toBe(1);
    expect(failing.stdout + failing.stderr).not.toContain(API_KEY);
    const files = await readTree(work.dir);
    expect(files.length).toBeGreaterThan(10);
    for (const { file, content } of files) {
      expect(content.includes(API_KEY), file).toBe(false);
    }
  });
});
