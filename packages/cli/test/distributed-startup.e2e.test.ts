import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createClient } from "@reelsmith/core";
import { connect } from "@reelsmith/distributed";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One PostgreSQL server for this file: embedded, or REELSMITH_TEST_DATABASE_URL's; each test
// takes fresh databases on it.
import { startTestDatabase, type TestDatabase } from "../../distributed/test/helpers/postgres.js";
import { type CliProcess, cleanEnv, runCli, startCli, tempDir } from "./helpers/cli-process.js";

let database: TestDatabase;
let simulator: Simulator;
let cwd: string;
const started: CliProcess[] = [];

const SCENES = 3;

/** SCENES one-second clips whose prompts name the pipeline and the scene. */
const pipeline = (name: string) => `name: ${name}
defaults:
  video: { model: reel-video-2-lite, seconds: 1, size: 720x480 }
steps:
  - id: clips
    for_each: [${Array.from({ length: SCENES }, (_, i) => i).join(", ")}]
    video: { prompt: "${name} scene \${{ item }}" }
`;

function env(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return cleanEnv({
    REELSMITH_DATABASE_URL: databaseUrl,
    REELSMITH_BASE_URL: simulator.url,
    REELSMITH_API_KEY: simulator.apiKey,
    ...extra,
  });
}

function start(args: string[], databaseUrl: string): CliProcess {
  const process = startCli(args, { cwd, env: env(databaseUrl) });
  started.push(process);
  return process;
}

async function stop(processes: CliProcess[]): Promise<void> {
  for (const process of processes) process.child.kill("SIGTERM");
  await Promise.all(processes.map((process) => process.done));
}

/** The prompts of every job the simulator made, from its own job list. */
async function jobPrompts(): Promise<string[]> {
  const client = createClient({ baseURL: simulator.url, apiKey: simulator.apiKey });
  const prompts: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.videos.list({ limit: 100, ...(after ? { after } : {}) });
    prompts.push(...page.data.map((job) => job.prompt));
    if (!page.has_more || !page.last_id) return prompts;
    after = page.last_id;
  }
}

/** Each scene of each named run was submitted exactly once. */
function expectEachSceneOnce(prompts: string[], names: string[]): void {
  for (const name of names) {
    for (let scene = 0; scene < SCENES; scene++) {
      expect(prompts.filter((prompt) => prompt === `${name} scene ${scene}`)).toHaveLength(1);
    }
  }
}

/**
 * 4 workers and 2 `run --database` processes started at the same instant on `databaseUrl`;
 * resolves when both runs have ended, with their results.
 */
async function startTogether(databaseUrl: string, names: [string, string]) {
  for (const name of names) await writeFile(path.join(cwd, `${name}.yaml`), pipeline(name));
  const workers = Array.from({ length: 4 }, () =>
    start(["worker", "--concurrency", "4"], databaseUrl),
  );
  const runs = names.map((name) =>
    start(["run", `${name}.yaml`, "--max-videos", "4"], databaseUrl),
  );
  const results = await Promise.all(runs.map((run) => run.done));
  return { workers, results };
}

beforeAll(async () => {
  database = await startTestDatabase();
  simulator = await startSimulator({ timeScale: 0.2 });
  cwd = (await tempDir("reelsmith-startup-")).dir;
});

afterAll(async () => {
  await stop(started);
  await simulator?.close();
  await database?.stop();
});

// Worker processes, PostgreSQL and ffmpeg share a 2-core machine here: generous limits.
describe("workers and runs started together", { timeout: 600_000 }, () => {
  it("4 workers and 2 runs started at the same instant on a fresh database, 5 times: every run completes, each scene submitted once", async () => {
    for (let round = 1; round <= 5; round++) {
      const databaseUrl = await database.freshDatabase();
      const names: [string, string] = [`together-${round}-a`, `together-${round}-b`];
      const { workers, results } = await startTogether(databaseUrl, names);
      for (const result of results) {
        expect(result.stderr).not.toMatch(/deadlock|error:/i);
        expect(result.code).toBe(0);
      }
      // Every worker came up and said so in one line: its id, concurrency and queues.
      for (const worker of workers) {
        await worker.waitFor(
          (output) => / ready: concurrency 4, queues .*reelsmith-runs/.test(output.stdout),
          120_000,
        );
      }
      await stop(workers);
      for (const worker of workers) expect(worker.output.stdout).toContain("worker stopped");
      expectEachSceneOnce(await jobPrompts(), names);
    }
  });

  it("the same on a database the previous schema version made", async () => {
    const databaseUrl = await database.freshDatabase();
    const previous = await readFile(
      path.join(
        import.meta.dirname,
        "..",
        "..",
        "distributed",
        "test",
        "fixtures",
        "schema-previous.sql",
      ),
      "utf8",
    );
    // The previous version's tables, with DBOS's schema made by a process of that version.
    await (await connect(databaseUrl)).close();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query("DROP SCHEMA reelsmith CASCADE");
    await client.query(previous);
    await client.end();
    const names: [string, string] = ["previous-a", "previous-b"];
    const { workers, results } = await startTogether(databaseUrl, names);
    for (const result of results) expect(result.code).toBe(0);
    await stop(workers);
    expectEachSceneOnce(await jobPrompts(), names);
  });
});

describe("a run with no worker", { timeout: 300_000 }, () => {
  it("says within seconds that no live worker is there and how to start one, then completes once a worker comes", async () => {
    const databaseUrl = await database.freshDatabase();
    await writeFile(path.join(cwd, "lonely.yaml"), pipeline("lonely"));
    const run = start(["run", "lonely.yaml"], databaseUrl);
    await run.waitFor((output) => /no live worker/.test(output.stdout + output.stderr), 120_000);
    const said = run.output.stdout + run.output.stderr;
    expect(said).toContain("reelsmith worker --database");
    // Nothing was submitted while nobody worked.
    expect((await jobPrompts()).filter((prompt) => prompt.startsWith("lonely "))).toHaveLength(0);
    const status = await runCli(["status"], { cwd, env: env(databaseUrl) });
    expect(status.stdout).toContain("no live worker");
    const worker = start(["worker"], databaseUrl);
    const result = await run.done;
    expect(result.code).toBe(0);
    expectEachSceneOnce(await jobPrompts(), ["lonely"]);
    // status lists the worker, live, with its last heartbeat.
    const listed = await runCli(["status"], { cwd, env: env(databaseUrl) });
    expect(listed.stdout).toMatch(
      /1 live worker:\n {2}\S+ {2}concurrency 8 {2}last heartbeat \d+ s ago/,
    );
    await stop([worker]);
    const after = await runCli(["status", "--json"], { cwd, env: env(databaseUrl) });
    expect((JSON.parse(after.stdout) as { workers: unknown[] }).workers).toHaveLength(0);
  });
});

describe("a worker stopped while it launches", { timeout: 300_000 }, () => {
  it("SIGTERM while it waits for the schema lock ends it within its grace, ready never said", async () => {
    const databaseUrl = await database.freshDatabase();
    // Another session holds the schema lock: the worker stays in its start-up wait.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock(hashtext('reelsmith.migrate'))");
    try {
      const worker = start(["worker", "--grace", "5"], databaseUrl);
      // Placed by the database's own state: the worker's session is there, trying the lock.
      const deadline = Date.now() + 120_000;
      for (;;) {
        const sessions = await holder.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'reelsmith worker %'",
        );
        if (sessions.rows[0].n > 0) break;
        if (Date.now() > deadline) throw new Error("the worker never reached the schema lock");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      worker.child.kill("SIGTERM");
      const result = await worker.done;
      // It ended while the lock was still held, so it did not wait for it (120 s by default).
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("worker stopped before it took any work");
      expect(result.stdout).not.toContain("ready:");
      expect(result.stderr).toBe("");
    } finally {
      await holder.end();
    }
  });

  it("a start-up wait that passes its deadline fails with what it waited for", async () => {
    const databaseUrl = await database.freshDatabase();
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock(hashtext('reelsmith.migrate'))");
    try {
      const result = await runCli(["worker", "--startup-timeout", "1"], {
        cwd,
        env: env(databaseUrl),
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /waiting for the schema lock reelsmith\.migrate \(held by pid \d+/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await holder.end();
    }
  });
});
