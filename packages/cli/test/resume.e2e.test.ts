import { readdir } from "node:fs/promises";
import path from "node:path";
import { probe } from "@reelsmith/media";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-resume-key-9876543210";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");
const SCENES = 4;

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  // Slow enough that a fan-out is caught half way: jobs take ~0.2–1.8 s each.
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.2, seed: 7 });
  work = await tempDir();
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

function events(stdout: string): { type: string; [key: string]: unknown }[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { type: string });
}

describe("reelsmith resume after kill -9 in the middle of the fan-out (built CLI)", () => {
  it("completes the run with exactly one submission per scene", async () => {
    const connection = ["--base-url", simulator.url, "--api-key", API_KEY];
    const run = startCli(
      [
        "run",
        STORYBOARD,
        "--input",
        `scenes=${SCENES}`,
        "--max-videos",
        "3",
        "--json",
        ...connection,
      ],
      { cwd: work.dir },
    );
    await run.waitFor((output) => {
      const seen = events(output.stdout);
      const submitted = seen.filter(
        (e) => e.type === "unit.progress" && e.stage === "submitted",
      ).length;
      const downloaded = seen.filter(
        (e) => e.type === "unit.progress" && e.stage === "saved",
      ).length;
      return submitted >= 2 && downloaded >= 1;
    }, 60_000);
    run.child.kill("SIGKILL");
    const killed = await run.done;
    expect(killed.signal).toBe("SIGKILL");
    const seen = events(killed.stdout);
    const downloadedBeforeKill = seen.filter(
      (e) => e.type === "unit.progress" && e.stage === "saved",
    ).length;
    expect(downloadedBeforeKill).toBeLessThan(SCENES);
    const runDir = String(seen.find((e) => e.type === "run.start")?.runDir);

    const resumed = await runCli(["resume", runDir, "--json", ...connection], { cwd: work.dir });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    // --json: every line of stdout is one event object, in order, ending with run.end.
    const lines = resumed.stdout.trimEnd().split("\n");
    const parsed = lines.map(
      (line) => JSON.parse(line) as { type: string; seq: number; [k: string]: unknown },
    );
    expect(parsed[0]).toMatchObject({ type: "run.start", resumed: true });
    expect(parsed.map((e) => e.seq)).toEqual([...parsed.map((e) => e.seq)].sort((a, b) => a - b));
    const end = parsed.at(-1) as unknown as {
      type: string;
      status: string;
      outputs: { video: string };
    };
    expect(end).toMatchObject({ type: "run.end", status: "succeeded" });
    expect(end.outputs.video).toMatch(/final\.mp4$/);

    const stats = simulator.stats();
    expect(stats.videoJobs.created).toBe(SCENES);
    const posts = Object.values(stats.requests["POST /v1/videos"] ?? {}).reduce((a, b) => a + b, 0);
    expect(posts).toBe(SCENES);

    const clips = (await readdir(path.join(runDir, "clips"))).filter((f) =>
      /^scene-\d+\.mp4$/.test(f),
    );
    expect(clips).toHaveLength(SCENES);
    let sum = 0;
    for (const clip of clips) sum += (await probe(path.join(runDir, "clips", clip))).duration;
    const final = await probe(path.join(runDir, "final.mp4"));
    expect(Math.abs(final.duration - sum)).toBeLessThan(0.3);
  });

  it("resumes an offline run on a new built-in simulator, whose jobs died with the first", async () => {
    // A directory of its own: the first test's clips, in its result cache, would make this run
    // submit nothing at all (the same requests are served from the cache).
    const offline = await tempDir();
    try {
      await resumeOffline(offline.dir);
    } finally {
      await offline.remove();
    }
  });
});

/** Run the storyboard offline in `cwd`, kill -9 it after the first submission, resume it. */
async function resumeOffline(cwd: string): Promise<void> {
  const run = startCli(["run", STORYBOARD, "--max-videos", "1", "--json"], { cwd });
  await run.waitFor(
    (output) =>
      events(output.stdout).some((e) => e.type === "unit.progress" && e.stage === "submitted"),
    60_000,
  );
  run.child.kill("SIGKILL");
  const killed = await run.done;
  const seen = events(killed.stdout);
  expect(seen.some((e) => e.type === "run.end")).toBe(false);
  const runDir = String(seen.find((e) => e.type === "run.start")?.runDir);

  const resumed = await runCli(["resume", runDir, "--json"], { cwd });
  expect(resumed.code).toBe(0);
  const end = events(resumed.stdout).at(-1);
  expect(end).toMatchObject({ type: "run.end", status: "succeeded" });
  const final = await probe(path.join(runDir, "final.mp4"));
  expect(final.duration).toBeGreaterThan(0);
}
