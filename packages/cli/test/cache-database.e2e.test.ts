import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Coordinator, connect } from "@reelsmith/distributed";
import { createDatabaseCacheIndex } from "@reelsmith/distributed/internal";
import { startSimulator } from "@reelsmith/simulator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One PostgreSQL for this file: embedded, or REELSMITH_TEST_DATABASE_URL's server.
import { startTestDatabase, type TestDatabase } from "../../distributed/test/helpers/postgres.js";
import { cleanEnv, runCli, tempDir } from "./helpers/cli-process.js";

let database: TestDatabase;
let coordinator: Coordinator;
let cwd: string;

beforeAll(async () => {
  database = await startTestDatabase();
  coordinator = await connect(database.url);
  cwd = (await tempDir("reelsmith-cache-db-")).dir;
});

afterAll(async () => {
  await coordinator?.close();
  await database?.stop();
});

/** A cached clip as a worker stores it: a row in the database, a blob in the artifacts. */
async function storeClip(artifacts: string, key: string, prompt: string): Promise<void> {
  const sha256 = key.replace(/./g, "b");
  const blobs = path.join(artifacts, ".cache", "blobs", sha256.slice(0, 2));
  await mkdir(blobs, { recursive: true });
  await writeFile(path.join(blobs, sha256), "c".repeat(2500));
  await createDatabaseCacheIndex(coordinator.pool).put({
    key,
    kind: "video",
    step: "clips",
    createdAt: "2026-03-01T09:30:00.000Z",
    outputs: { file: "clips/0.mp4", id: "video_1" },
    files: { file: { path: "clips/0.mp4", sha256, bytes: 2500 } },
    summary: `reel-video-2-lite: ${prompt}`,
  });
}

/** The schemas of reelsmith and DBOS that the database at `url` has. */
async function ourSchemas(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query<{ nspname: string }>(
      "SELECT nspname FROM pg_namespace WHERE nspname IN ('reelsmith', 'dbos')",
    );
    return found.rows.map((row) => row.nspname);
  } finally {
    await client.end();
  }
}

describe("reelsmith cache --database", { timeout: 120_000 }, () => {
  it("lists the database's entries like a local cache, and clears them, the clips only with --artifacts", async () => {
    const artifacts = path.join(cwd, "artifacts");
    await storeClip(artifacts, "0123456789ab".padEnd(64, "0"), "a heron at dawn");
    const list = await runCli(["cache", "ls", "--database", database.url], { cwd });
    expect(list.stderr).toBe("");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /0123456789ab\s+video\s+clips\s+2\.5 kB\s+2026-03-01T09:30:00Z\s+reel-video-2-lite: a heron at dawn/,
    );
    expect(list.stdout).toMatch(/1 entries, 2\.5 kB in database /);
    // REELSMITH_DATABASE_URL works as for run and status.
    const env = cleanEnv({ REELSMITH_DATABASE_URL: database.url });
    const json = await runCli(["cache", "ls", "--json"], { cwd, env });
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as { entries: { key: string; bytes: number }[] };
    expect(listed.entries).toMatchObject([{ key: "0123456789ab".padEnd(64, "0"), bytes: 2500 }]);

    const kept = await runCli(["cache", "clear"], { cwd, env });
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/removed 1 cache entry from database .*stay in/);
    expect(existsSync(path.join(artifacts, ".cache", "blobs"))).toBe(true);
    expect((await runCli(["cache", "ls"], { cwd, env })).stdout).toMatch(/is empty/);

    await storeClip(artifacts, "fedcba987654".padEnd(64, "0"), "a fox");
    const cleared = await runCli(["cache", "clear", "--artifacts", "artifacts"], { cwd, env });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(/removed 1 cache entry \(2\.5 kB\) from database .* and /);
    expect(existsSync(path.join(artifacts, ".cache", "blobs"))).toBe(false);
    const rows = await coordinator.pool.query(
      "SELECT count(*)::int AS n FROM reelsmith.cache_entries",
    );
    expect(rows.rows[0].n).toBe(0);
  });

  it("plans with a database only by reading it: one no worker used gets no schema", async () => {
    const fresh = await database.freshDatabase();
    const apiKey = "sk-cache-db-plan-1234567890";
    const simulator = await startSimulator({ apiKey });
    try {
      const file = path.join(cwd, "one-clip.yaml");
      await writeFile(
        file,
        "name: one-clip\nsteps:\n  - id: clip\n    video: { model: reel-video-1, prompt: a heron, seconds: 4, size: 1280x720 }\n",
      );
      const env = cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: apiKey });
      const plan = await runCli(["plan", file, "--database", fresh, "--json"], { cwd, env });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stderr).toContain(
        "the database has no reelsmith tables yet (no worker has used it): nothing is cached there",
      );
      expect(JSON.parse(plan.stdout).limits.requests.videoJobs).toBe(1);
      expect(await ourSchemas(fresh)).toEqual([]);
    } finally {
      await simulator.close();
    }
  });

  it("status only reads: a database no worker used gets no schema, and a read-only role can ask it", async () => {
    const fresh = await database.freshDatabase();
    const empty = await runCli(["status", "--database", fresh], { cwd, env: cleanEnv({}) });
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toContain("no runs yet: the database has no reelsmith tables");
    const json = await runCli(["status", "--database", fresh, "--json"], {
      cwd,
      env: cleanEnv({}),
    });
    expect(JSON.parse(json.stdout)).toEqual({ runs: [], workers: [] });
    const one = await runCli(["status", "run-1", "--database", fresh], { cwd, env: cleanEnv({}) });
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/no run run-1 in the database: it has no reelsmith tables yet/);
    expect(one.stderr).not.toMatch(/\n\s+at /);
    expect(await ourSchemas(fresh)).toEqual([]);

    // A role that may only read the tables (a dashboard's, a CI check's) gets the status.
    const role = `reader_${process.pid}`;
    await coordinator.pool.query(`CREATE ROLE ${role} LOGIN PASSWORD 'reader-pass'`);
    for (const schema of ["reelsmith", "dbos"]) {
      await coordinator.pool.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
      await coordinator.pool.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    }
    const reader = new URL(database.url);
    reader.username = role;
    reader.password = "reader-pass";
    const read = await runCli(["status", "--database", reader.toString()], {
      cwd,
      env: cleanEnv({}),
    });
    expect(read.stderr).toBe("");
    expect(read.code).toBe(0);
    expect(read.stdout).toMatch(/no live worker/);
  });

  it("refuses --artifacts without a database, naming what to pass", async () => {
    const result = await runCli(["cache", "clear", "--artifacts", "artifacts"], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--artifacts needs --database/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const file = path.join(cwd, "one-chat.yaml");
    await writeFile(file, "name: one\nsteps:\n  - id: a\n    chat: { prompt: hi }\n");
    const plan = await runCli(["plan", file, "--artifacts", "artifacts", "--no-service"], {
      cwd,
      env: cleanEnv({}),
    });
    expect(plan.code).toBe(2);
    expect(plan.stderr).toMatch(/--artifacts needs --database/);
    expect(plan.stderr).not.toMatch(/\n\s+at /);
  });
});
