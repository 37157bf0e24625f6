import { existsSync } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { probe } from "@reelsmith/media";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, EXAMPLES, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-batch-key-1234567890";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");
const STORIES = [
  "A paper boat sails down a rainy gutter.",
  "A red kite escapes over the dunes.",
  "A night train crosses a frozen bridge.",
  "A lighthouse keeper feeds a gull.",
  "A fox naps under a birch at noon.",
];

let simulator: Simulator;
beforeAll(async () => {
  // Slow enough that a batch is caught half way: jobs take ~0.2–1.8 s each.
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.2, seed: 11 });
});
afterAll(async () => {
  await simulator?.close();
});

const connection = () => ["--base-url", simulator.url, "--api-key", API_KEY];

type Event = { type: string; row?: string; [key: string]: unknown };
function events(stdout: string): Event[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Event);
}

/** Paid requests the simulator has answered so far: video submissions and chats. */
function paid(service: Simulator = simulator) {
  const stats = service.stats();
  const posts = Object.values(stats.requests["POST /v1/videos"] ?? {}).reduce((a, b) => a + b, 0);
  return {
    jobs: stats.videoJobs.created,
    posts,
    chats: stats.chatCompletions,
    credits: stats.creditsCharged,
  };
}

/** A CSV of stories, one scene each. */
async function csv(dir: string, stories: readonly string[], extra = ""): Promise<string> {
  const file = path.join(dir, "stories.csv");
  await writeFile(file, `story,scenes\n${stories.map((s) => `"${s}",1`).join("\n")}\n${extra}`);
  return file;
}

describe("reelsmith batch (built CLI, simulator on loopback)", () => {
  it("refuses a malformed row of a 20-row file by its line and field before anything is sent", async () => {
    const work = await tempDir();
    try {
      // Line 1 the header, lines 2-14 good rows, line 15 a bad one, lines 16-21 good again.
      const stories = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => `Story ${from + i}: a fox at the lighthouse.`);
      const after = stories(15, 6).map((s) => `"${s}",1`);
      const rows = await csv(work.dir, stories(1, 13), `"A bad row.",two\n${after.join("\n")}\n`);
      const before = paid();
      const result = await runCli(
        ["batch", STORYBOARD, "--inputs", rows, "--json", ...connection()],
        {
          cwd: work.dir,
        },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /stories\.csv:15: scenes: expected an integer, got string "two"/,
      );
      expect(result.stdout).toBe("");
      expect(paid()).toEqual(before);
      expect(existsSync(path.join(work.dir, "runs"))).toBe(false);
    } finally {
      await work.remove();
    }
  });

  it("prints each row's cost and the total before anything is paid", async () => {
    const work = await tempDir();
    try {
      const rows = await csv(work.dir, STORIES);
      const before = paid();
      const plan = await runCli(
        ["batch", STORYBOARD, "--inputs", rows, "--plan", ...connection()],
        {
          cwd: work.dir,
        },
      );
      expect(plan.code, plan.stderr).toBe(0);
      const lines = plan.stdout.trim().split("\n");
      expect(lines.filter((line) => /^r-[0-9a-f]{12}\s+\d+\s+9 credits$/.test(line))).toHaveLength(
        5,
      );
      expect(lines.at(-1)).toBe("total: 45 credits for 5 rows");
      // `plan` of a CSV says the same.
      const same = await runCli(["plan", STORYBOARD, "--inputs", rows], {
        cwd: work.dir,
        env: cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY }),
      });
      expect(same.code, same.stderr).toBe(0);
      expect(same.stdout).toBe(plan.stdout);
      expect(paid()).toEqual(before);
    } finally {
      await work.remove();
    }
  });

  it("finishes the other rows when one fails, and exits 1", async () => {
    const work = await tempDir();
    try {
      const rows = path.join(work.dir, "stories.jsonl");
      await writeFile(
        rows,
        `${JSON.stringify({ id: "good", story: STORIES[0], scenes: 1 })}\n${JSON.stringify({ id: "bad", story: STORIES[1], scenes: 1, style: "#fail" })}\n`,
      );
      const result = await runCli(
        ["batch", STORYBOARD, "--inputs", rows, "--json", ...connection()],
        {
          cwd: work.dir,
        },
      );
      expect(result.code, result.stderr).toBe(1);
      const ends = events(result.stdout).filter((e) => e.type === "batch.row.end");
      expect(Object.fromEntries(ends.map((e) => [e.row, e.status]))).toEqual({
        good: "succeeded",
        bad: "failed",
      });
      expect(events(result.stdout).at(-1)).toMatchObject({ type: "batch.end", status: "failed" });
      expect(result.stderr).toMatch(/some rows failed; the others finished/);
    } finally {
      await work.remove();
    }
  });

  it("counts what the cache holds as free: a batch made again fits a budget smaller than its price", async () => {
    const work = await tempDir();
    try {
      // Each row's clip is asked from its inputs alone, so its request (and its cache key) is
      // known before the row starts.
      const pipeline = path.join(work.dir, "clip.yaml");
      await writeFile(
        pipeline,
        [
          "name: clip",
          "inputs:",
          "  story: { type: string }",
          "  scenes: { type: integer, default: 1 }",
          "steps:",
          "  - id: clip",
          '    video: { model: reel-video-1, prompt: "${{ inputs.story }}", seconds: 4, size: 1280x720, output: clip.mp4 }',
          "",
        ].join("\n"),
      );
      const rows = await csv(work.dir, STORIES.slice(0, 2));
      const batch = (...extra: string[]) =>
        runCli(["batch", pipeline, "--inputs", rows, "--json", ...extra, ...connection()], {
          cwd: work.dir,
        });
      const first = await batch();
      expect(first.code, first.stderr).toBe(0);
      const priced = events(first.stdout).find((e) => e.type === "batch.start");
      const price = (priced?.estimate as { credits: number } | undefined)?.credits;
      expect(price).toBeGreaterThan(5);
      const before = paid();
      // The same rows again, on a budget below one row's price: the cache serves every clip.
      const again = await batch("--max-credits", "5");
      expect(again.code, again.stderr).toBe(0);
      const seen = events(again.stdout);
      const start = seen.find((e) => e.type === "batch.start");
      expect((start?.estimate as { credits: number } | undefined)?.credits).toBe(0);
      expect(seen.filter((e) => e.type === "batch.row.skipped")).toHaveLength(0);
      expect(seen.filter((e) => e.type === "batch.row.start")).toHaveLength(2);
      expect(paid().credits - before.credits).toBe(0);
      // Its plans say so too, priced as the runs are (`--no-cache`: every request priced).
      const env = cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY });
      const plan = (...args: string[]) =>
        runCli(["plan", pipeline, ...args], { cwd: work.dir, env });
      const rowsPlan = await plan("--inputs", rows);
      expect(rowsPlan.code, rowsPlan.stderr).toBe(0);
      expect(rowsPlan.stdout).toContain("total: 0 credits for 2 rows");
      const rowsFull = await plan("--inputs", rows, "--no-cache");
      expect(rowsFull.stdout).toContain(`total: ${price} credits for 2 rows`);
      const batchPlan = await batch("--plan");
      expect(JSON.parse(batchPlan.stdout).credits).toBe(0);
      const one = await plan("--input", `story=${STORIES[0]}`, "--json");
      expect(one.code, one.stderr).toBe(0);
      const { estimate, requests } = JSON.parse(one.stdout).limits;
      expect(estimate.credits).toBe(0);
      expect(estimate.steps.clip).toMatchObject({ cached: 1, units: 0, credits: 0 });
      // The cache answers the clip: no video job is sent either.
      expect(requests.videoJobs).toBe(0);
      const shown = await plan("--input", `story=${STORIES[0]}`);
      expect(shown.stdout).toMatch(/^ {2}video jobs: 0$/m);
      const full = await plan("--input", `story=${STORIES[0]}`, "--json", "--no-cache");
      expect(JSON.parse(full.stdout).limits).toMatchObject({
        estimate: { credits: (price ?? 0) / 2 },
        requests: { videoJobs: 1 },
      });
      // Where runs go to a database, its workers' cache prices them; one that does not answer
      // leaves every request priced (the most a run there costs), and says so.
      const away = await runCli(["plan", pipeline, "--input", `story=${STORIES[0]}`, "--json"], {
        cwd: work.dir,
        env: {
          ...env,
          REELSMITH_DATABASE_URL: "postgres://reelsmith:secret@127.0.0.1:1/reelsmith",
          REELSMITH_DATABASE_TIMEOUT: "1",
        },
      });
      expect(away.code, away.stderr).toBe(0);
      expect(away.stderr).toMatch(/the database did not answer \(.*\): priced without its cache/);
      expect(away.stderr).not.toContain("secret");
      expect(JSON.parse(away.stdout).limits.estimate.credits).toBe((price ?? 0) / 2);
      // A story never made costs its price.
      const fresh = await plan("--input", "story=A heron waits in the reeds.", "--json");
      expect(JSON.parse(fresh.stdout).limits).toMatchObject({
        estimate: { credits: (price ?? 0) / 2 },
        requests: { videoJobs: 1 },
      });
      expect(paid().credits - before.credits).toBe(0);
      // A cached clip whose file is gone is fetched again by a run, so a plan prices it.
      await rm(path.join(work.dir, ".reelsmith", "cache", "blobs"), { recursive: true });
      const blobless = await plan("--input", `story=${STORIES[0]}`, "--json");
      expect(blobless.code, blobless.stderr).toBe(0);
      expect(JSON.parse(blobless.stdout).limits).toMatchObject({
        estimate: { credits: (price ?? 0) / 2 },
        requests: { videoJobs: 1 },
      });
    } finally {
      await work.remove();
    }
  });

  it("shares the video slots across rows and stops before a row the batch's budget cannot pay for", async () => {
    const work = await tempDir();
    // A service of its own: its peak of jobs at once is this batch's alone.
    const own = await startSimulator({ apiKey: API_KEY, timeScale: 0.2, seed: 3 });
    const connection = () => ["--base-url", own.url, "--api-key", API_KEY];
    try {
      const rows = await csv(work.dir, STORIES);
      const before = paid(own);
      const first = await runCli(
        [
          "batch",
          STORYBOARD,
          "--inputs",
          rows,
          "--max-credits",
          "30",
          "--parallel",
          "2",
          "--max-videos",
          "1",
          "--json",
          ...connection(),
        ],
        { cwd: work.dir },
      );
      expect(first.code, first.stderr).toBe(3);
      const seen = events(first.stdout);
      const skipped = seen.filter((e) => e.type === "batch.row.skipped");
      expect(skipped).toHaveLength(2);
      expect(String(skipped[0]?.message)).toMatch(
        /its certain cost, 9 credits, is more than the 3 left of the batch's budget of 30/,
      );
      const end = seen.find((e) => e.type === "batch.end");
      expect(end).toMatchObject({ status: "budget_reached", credits: 27 });
      // Every row's run event carries its row.
      expect(
        seen.filter((e) => e.type === "run.start").every((e) => typeof e.row === "string"),
      ).toBe(true);
      expect(paid(own).jobs - before.jobs).toBe(3);
      expect(paid(own).credits - before.credits).toBe(27);

      const batchDir = String(seen.find((e) => e.type === "batch.start")?.batchDir);
      const resumed = await runCli(
        ["resume", batchDir, "--max-credits", "45", "--json", ...connection()],
        {
          cwd: work.dir,
        },
      );
      expect(resumed.code, resumed.stderr).toBe(0);
      const again = events(resumed.stdout);
      expect(again.find((e) => e.type === "batch.start")).toMatchObject({ finished: 3, spent: 27 });
      expect(again.filter((e) => e.type === "batch.row.start")).toHaveLength(2);
      expect(paid(own).jobs - before.jobs).toBe(5);
      expect(paid(own).credits - before.credits).toBe(45);
      const summary = JSON.parse(await readFile(path.join(batchDir, "batch.json"), "utf8"));
      expect(summary).toMatchObject({ status: "succeeded", credits: 45 });
      expect(summary.rows.map((row: { status: string }) => row.status)).toEqual(
        Array(5).fill("succeeded"),
      );
      // Two rows ran at once but shared the one video slot, as one run's steps do: no job is
      // submitted while another row's job is still running.
      expect(seen.slice(0, 3).map((e) => e.type)).toEqual([
        "batch.start",
        "batch.row.start",
        "batch.row.start",
      ]);
      let holder: string | undefined;
      let submissions = 0;
      for (const event of [...seen, ...again]) {
        if (event.type !== "unit.progress") continue;
        if (event.stage === "submitted") {
          expect(holder).toBeUndefined();
          holder = event.row;
          submissions += 1;
        } else if (event.stage === "status" && /completed|failed/.test(String(event.status))) {
          expect(event.row).toBe(holder);
          holder = undefined;
        }
      }
      expect(submissions).toBe(5);
    } finally {
      await own.close();
      await work.remove();
    }
  });

  it("survives kill -9 mid-batch: resume pays one job per clip, a second resume and a re-run are free", async () => {
    const work = await tempDir();
    try {
      const rows = await csv(work.dir, STORIES.slice(0, 4));
      const before = paid();
      const run = startCli(
        ["batch", STORYBOARD, "--inputs", rows, "--parallel", "2", "--json", ...connection()],
        {
          cwd: work.dir,
        },
      );
      await run.waitFor((output) => {
        const seen = events(output.stdout);
        const ended = new Set(seen.filter((e) => e.type === "batch.row.end").map((e) => e.row));
        // One row finished and another has a job in flight.
        return (
          ended.size >= 1 &&
          seen.some(
            (e) => e.type === "unit.progress" && e.stage === "submitted" && !ended.has(e.row),
          )
        );
      }, 120_000);
      run.child.kill("SIGKILL");
      const killed = await run.done;
      expect(killed.signal).toBe("SIGKILL");
      const seen = events(killed.stdout);
      expect(seen.some((e) => e.type === "batch.end")).toBe(false);
      const batchDir = String(seen.find((e) => e.type === "batch.start")?.batchDir);
      const finishedBefore = seen.filter((e) => e.type === "batch.row.end").length;

      const resumed = await runCli(["resume", batchDir, "--json", ...connection()], {
        cwd: work.dir,
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      const after = events(resumed.stdout);
      expect(after.find((e) => e.type === "batch.start")).toMatchObject({
        finished: finishedBefore,
      });
      expect(after.find((e) => e.type === "batch.end")).toMatchObject({ status: "succeeded" });
      // Each row has one scene: one job per row, however the kill fell.
      expect(paid().jobs - before.jobs).toBe(4);
      expect(paid().posts - before.posts).toBe(4);
      const rowDirs = await readdir(path.join(batchDir, "rows"));
      const finals = rowDirs.filter((name) => !name.startsWith("."));
      expect(finals).toHaveLength(4);
      for (const name of finals) {
        const final = await probe(path.join(batchDir, "rows", name, "final.mp4"));
        expect(final.duration).toBeGreaterThan(0);
      }
      expect(existsSync(path.join(batchDir, "batch.html"))).toBe(true);

      // A finished batch resumed again runs nothing.
      const settled = paid();
      const again = await runCli(["resume", batchDir, "--json", ...connection()], {
        cwd: work.dir,
      });
      expect(again.code, again.stderr).toBe(0);
      expect(events(again.stdout).filter((e) => e.type === "batch.row.start")).toHaveLength(0);
      expect(paid()).toEqual(settled);

      // The same file again in a new batch: every row's requests come from the cache.
      const rerun = await runCli(
        ["batch", STORYBOARD, "--inputs", rows, "--json", ...connection()],
        {
          cwd: work.dir,
        },
      );
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(events(rerun.stdout).find((e) => e.type === "batch.end")).toMatchObject({
        status: "succeeded",
        credits: 0,
      });
      expect(paid()).toEqual(settled);
    } finally {
      await work.remove();
    }
  });
});
