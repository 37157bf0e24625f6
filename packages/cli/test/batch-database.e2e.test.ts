import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One PostgreSQL for this file: embedded, or REELSMITH_TEST_DATABASE_URL's server.
import { startTestDatabase, type TestDatabase } from "../../distributed/test/helpers/postgres.js";
import { type CliProcess, cleanEnv, runCli, startCli, tempDir } from "./helpers/cli-process.js";

let database: TestDatabase;
let simulator: Simulator;
let cwd: string;
const workers: CliProcess[] = [];

/** Two 1 s clips at 720x480 per row: 4 credits a clip at the reference price, 8 a row. */
const PIPELINE = `name: shorts
inputs:
  topic: { type: string }
defaults:
  video: { model: reel-video-2-lite, seconds: 1, size: 720x480 }
steps:
  - id: clips
    for_each: [0, 1]
    video: { prompt: "\${{ inputs.topic }}, shot \${{ item }}" }
`;
/** The same, behind a gate: nothing is paid before someone approves the row. */
const GATED = PIPELINE.replace(
  "steps:\n",
  "steps:\n  - id: review\n    approve: { message: Approve this row's clips. }\n",
).replace("    for_each: [0, 1]\n", "    needs: [review]\n    for_each: [0, 1]\n");
const TOPICS = ["a heron", "a tram", "a kettle", "a meteor", "a violin"];

function env(): Record<string, string> {
  return cleanEnv({
    REELSMITH_DATABASE_URL: database.url,
    REELSMITH_BASE_URL: simulator.url,
    REELSMITH_API_KEY: simulator.apiKey,
  });
}

type Event = { type: string; row?: string; [key: string]: unknown };
function events(stdout: string): Event[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Event);
}

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  // Generous: a loaded 2-core machine runs PostgreSQL, workers and ffmpeg at once.
  const deadline = Date.now() + 180_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await startTestDatabase();
  simulator = await startSimulator({ timeScale: 0.2, seed: 7 });
  cwd = (await tempDir("reelsmith-batch-database-")).dir;
  // Three workers, as three machines would run them.
  for (let n = 0; n < 3; n++) {
    const worker = startCli(["worker", "--concurrency", "4"], { cwd, env: env() });
    workers.push(worker);
  }
  for (const worker of workers)
    await worker.waitFor((output) => output.stdout.includes(" ready: "), 120_000);
}, 300_000);

afterAll(async () => {
  for (const worker of workers) {
    worker.child.kill("SIGTERM");
    await worker.done;
  }
  await simulator?.close();
  await database?.stop();
});

describe("reelsmith batch --database", { timeout: 400_000 }, () => {
  it("runs the rows on three workers within one shared budget, shows them in status, and resumes without repaying", async () => {
    await writeFile(path.join(cwd, "shorts.yaml"), PIPELINE);
    await writeFile(path.join(cwd, "topics.csv"), `topic\n${TOPICS.join("\n")}\n`);
    const before = simulator.stats();
    // 5 rows of 8 credits; the batch may spend 28: three rows, then the budget stops it.
    const first = await runCli(
      [
        "batch",
        "shorts.yaml",
        "--inputs",
        "topics.csv",
        "--max-credits",
        "28",
        "--parallel",
        "3",
        "--json",
      ],
      { cwd, env: env() },
    );
    expect(first.code, first.stderr).toBe(3);
    const seen = events(first.stdout);
    const start = seen.find((e) => e.type === "batch.start");
    const batchDir = String(start?.batchDir);
    const ends = seen.filter((e) => e.type === "batch.row.end");
    expect(ends.map((e) => e.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const skipped = seen.filter((e) => e.type === "batch.row.skipped");
    expect(skipped).toHaveLength(2);
    expect(String(skipped[0]?.message)).toMatch(
      /its certain cost, 8 credits, is more than the 4 left of the batch's budget of 28/,
    );
    expect(seen.at(-1)).toMatchObject({ type: "batch.end", status: "budget_reached", credits: 24 });
    // The rows' run events came from the workers, each with its row.
    expect(seen.filter((e) => e.type === "run.start" && typeof e.row === "string")).toHaveLength(3);

    // The service's own count, once nothing is in flight there: one job per clip paid.
    await waitUntil(() => simulator.stats().jobsInFlight === 0, "the service's jobs to end");
    expect(simulator.stats().videoJobs.created - before.videoJobs.created).toBe(6);
    expect(simulator.stats().creditsCharged - before.creditsCharged).toBe(24);

    // Every row's run is a run of the database, its directory beside the batch's.
    const summary = JSON.parse(await readFile(path.join(batchDir, "batch.json"), "utf8"));
    const started = summary.rows.filter((row: { runId?: string }) => row.runId);
    expect(started).toHaveLength(3);
    for (const row of started) {
      expect(existsSync(path.join(batchDir, row.runDir, "journal.jsonl"))).toBe(true);
    }

    // status BATCH_ID, by the batch directory's name, from any machine.
    const name = path.basename(batchDir);
    const status = await runCli(["status", name], { cwd, env: env() });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(`^batch ${summary.batchId}\\s+budget_reached\\s+5 rows\\s+credits 24 of 28`),
    );
    const rowLines = status.stdout.split("\n").filter((line) => line.startsWith("  row "));
    expect(rowLines).toHaveLength(5);
    expect(rowLines.filter((line) => /succeeded\s+8 credits\s+run \S+/.test(line))).toHaveLength(3);
    expect(rowLines.filter((line) => /budget_reached\s+0 credits/.test(line))).toHaveLength(2);
    const json = JSON.parse((await runCli(["status", name, "--json"], { cwd, env: env() })).stdout);
    expect(json.budget).toMatchObject({ spent: 24, reserved: 0, maxCredits: 28 });

    // A local resume of it would pay its rows again: refused.
    const local = await runCli(["resume", batchDir], {
      cwd,
      env: cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: simulator.apiKey }),
    });
    expect(local.code).toBe(2);
    expect(local.stderr).toMatch(/resume it with the same database/);

    // Resumed with a larger budget: only the two rows left run; the three finished are kept.
    const resumed = await runCli(["resume", batchDir, "--max-credits", "40", "--json"], {
      cwd,
      env: env(),
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const again = events(resumed.stdout);
    expect(again.find((e) => e.type === "batch.start")).toMatchObject({ finished: 3, spent: 24 });
    expect(again.filter((e) => e.type === "batch.row.start")).toHaveLength(2);
    expect(again.at(-1)).toMatchObject({ type: "batch.end", status: "succeeded", credits: 40 });
    await waitUntil(() => simulator.stats().jobsInFlight === 0, "the service's jobs to end");
    expect(simulator.stats().videoJobs.created - before.videoJobs.created).toBe(10);
    expect(simulator.stats().creditsCharged - before.creditsCharged).toBe(40);
    const after = await runCli(["status", name, "--json"], { cwd, env: env() });
    expect(JSON.parse(after.stdout).budget).toMatchObject({ spent: 40, maxCredits: 40 });

    // Every row made: the workers' cache (in the database) holds each clip, and a plan of the
    // same rows reads it there, as the batch's estimate does.
    const plan = (...extra: string[]) =>
      runCli(["batch", "shorts.yaml", "--inputs", "topics.csv", "--plan", "--json", ...extra], {
        cwd,
        env: env(),
      });
    const cachedPlan = await plan();
    expect(cachedPlan.code, cachedPlan.stderr).toBe(0);
    expect(JSON.parse(cachedPlan.stdout)).toMatchObject({ credits: 0, complete: true });
    const fullPlan = await plan("--no-cache");
    expect(JSON.parse(fullPlan.stdout).credits).toBe(40);
    // A row's own plan, where runs go to the database (REELSMITH_DATABASE_URL): its clips are
    // free there and no job is sent; planned for a run here, the working directory's cache
    // has none of them.
    const rowPlan = (given: Record<string, string>) =>
      runCli(["plan", "shorts.yaml", "--input", `topic=${TOPICS[0]}`, "--json"], {
        cwd,
        env: given,
      });
    const onDatabase = JSON.parse((await rowPlan(env())).stdout).limits;
    expect(onDatabase.estimate).toMatchObject({ credits: 0, steps: { clips: { cached: 2 } } });
    expect(onDatabase.requests.videoJobs).toBe(0);
    // Its entries count only where their clips are: a directory the workers do not share
    // holds none of them, and the row is priced whole.
    const elsewhere = await runCli(
      ["plan", "shorts.yaml", "--input", `topic=${TOPICS[0]}`, "--artifacts", "other", "--json"],
      { cwd, env: env() },
    );
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(JSON.parse(elsewhere.stdout).limits.estimate.credits).toBe(8);
    const { REELSMITH_DATABASE_URL: _url, ...here } = env();
    const planHere = JSON.parse((await rowPlan(here)).stdout).limits;
    expect(planHere.estimate.credits).toBe(8);
    expect(planHere.requests.videoJobs).toBe(2);
    // The same rows in a new batch on a budget below one row's price: each row is priced at
    // 0 and starts, and the workers serve every clip from the cache.
    const made = await runCli(
      ["batch", "shorts.yaml", "--inputs", "topics.csv", "--max-credits", "5", "--json"],
      { cwd, env: env() },
    );
    expect(made.code, made.stderr).toBe(0);
    const remade = events(made.stdout);
    expect(remade.find((e) => e.type === "batch.start")?.estimate).toMatchObject({ credits: 0 });
    expect(remade.filter((e) => e.type === "batch.row.start")).toHaveLength(5);
    expect(remade.at(-1)).toMatchObject({ type: "batch.end", status: "succeeded", credits: 0 });
    await waitUntil(() => simulator.stats().jobsInFlight === 0, "the service's jobs to end");
    expect(simulator.stats().videoJobs.created - before.videoJobs.created).toBe(10);
    expect(simulator.stats().creditsCharged - before.creditsCharged).toBe(40);
  });

  it("stops rows on the workers at their gates (exit 4), approves them by row, and resumes", async () => {
    await writeFile(path.join(cwd, "gated.yaml"), GATED);
    await writeFile(path.join(cwd, "gated.csv"), "id,topic\nowl,an owl\nbus,a night bus\n");
    const before = simulator.stats().videoJobs.created;
    const first = await runCli(["batch", "gated.yaml", "--inputs", "gated.csv", "--json"], {
      cwd,
      env: env(),
    });
    expect(first.code, first.stderr).toBe(4);
    const batchDir = String(events(first.stdout).find((e) => e.type === "batch.start")?.batchDir);
    const shown = path.relative(cwd, batchDir);
    for (const row of ["owl", "bus"])
      expect(first.stderr).toContain(`reelsmith approve ${shown} --row ${row} --database …`);
    expect(simulator.stats().videoJobs.created - before).toBe(0);
    for (const row of ["owl", "bus"]) {
      const approved = await runCli(["approve", shown, "--row", row, "--by", "ana"], {
        cwd,
        env: env(),
      });
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toMatch(/approved "review" of run \S+ by ana/);
    }
    // The workers go on with each approved run; the batch's resume follows them to their end.
    const resumed = await runCli(["resume", shown, "--json"], { cwd, env: env() });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(events(resumed.stdout).at(-1)).toMatchObject({
      type: "batch.end",
      status: "succeeded",
      credits: 16,
    });
    await waitUntil(() => simulator.stats().jobsInFlight === 0, "the service's jobs to end");
    expect(simulator.stats().videoJobs.created - before).toBe(4);
  });

  it("survives kill -9 of the machine driving it: its rows go on on the workers, the resume pays nothing twice", async () => {
    await writeFile(path.join(cwd, "shorts.yaml"), PIPELINE);
    await writeFile(
      path.join(cwd, "more.csv"),
      "topic\na lighthouse\na paper crane\na desert fox\na tugboat\n",
    );
    const before = simulator.stats().videoJobs.created;
    const run = startCli(
      ["batch", "shorts.yaml", "--inputs", "more.csv", "--parallel", "2", "--json"],
      { cwd, env: env() },
    );
    await run.waitFor((output) => {
      const seen = events(output.stdout);
      const ended = seen.filter((e) => e.type === "batch.row.end").length;
      const started = seen.filter((e) => e.type === "batch.row.start").length;
      // One row finished, another is on the workers.
      return ended >= 1 && started > ended;
    }, 180_000);
    run.child.kill("SIGKILL");
    const killed = await run.done;
    expect(killed.signal).toBe("SIGKILL");
    const seen = events(killed.stdout);
    expect(seen.some((e) => e.type === "batch.end")).toBe(false);
    const batchDir = String(seen.find((e) => e.type === "batch.start")?.batchDir);

    const resumed = await runCli(["resume", batchDir, "--json"], { cwd, env: env() });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = events(resumed.stdout);
    expect(after.at(-1)).toMatchObject({ type: "batch.end", status: "succeeded", credits: 32 });
    await waitUntil(() => simulator.stats().jobsInFlight === 0, "the service's jobs to end");
    // Four rows of two clips: eight jobs, however the kill fell.
    expect(simulator.stats().videoJobs.created - before).toBe(8);
    const summary = JSON.parse(await readFile(path.join(batchDir, "batch.json"), "utf8"));
    expect(summary.rows.map((row: { status: string }) => row.status)).toEqual(
      Array(4).fill("succeeded"),
    );
  });
});
