// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { videoModels } from "@reelsmith/simulator/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearDatabaseCache, listDatabaseCache } from "../src/admin-entry.js";
import { createPool } from "../src/database/pool.js";
import {
  type Coordinator,
  connect,
  followRun,
  startWorker,
  submitRun,
  type Worker,
} from "../src/index.js";
import { createDatabaseCacheIndex } from "../src/internal.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";

let database: TestDatabase;
let simulator: Simulator;
let coordinator: Coordinator;
let worker: Worker;

beforeAll(async () => {
  database = await startTestDatabase();
  simulator = await startSimulator({ timeScale: 0.25 });
  coordinator = await connect(database.url);
  worker = await startWorker({ databaseUrl: database.url, apiKey: simulator.apiKey });
});

afterAll(async () => {
  await worker?.stop({ graceMs: 0 });
  await coordinator?.close();
  await simulator?.close();
  await database?.stop();
});

function newArtifacts(): string {
  return mkdtempSync(join(tmpdir(), "reelsmith-artifacts-"));
}

/** Three 1 s clips whose prompts no other test asks for. */
function threeClips(word: string) {
  return {
    name: `cache-${word}`,
    defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" } },
    steps: [
      {
        id: "clips",
        for_each: [0, 1, 2],
        video: { prompt: `${word} clip \${{ item }}`, output: "clips/${{ index }}.mp4" },
      },
    ],
    outputs: { files: "${{ steps.clips.outputs.*.file }}" },
  };
}

async function runOnce(
  pipeline: object,
  artifacts: string,
  options: Partial<Parameters<typeof submitRun>[1]> = {},
): Promise<string[]> {
  const { runId } = await submitRun(coordinator, {
    pipeline,
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    artifacts,
    ...options,
  });
  const result = await followRun(coordinator, runId);
  expect(result.error).toBeUndefined();
  expect(result.status).toBe("succeeded");
  const files = result.outputs.files as string[];
  for (const file of files) expect(existsSync(file)).toBe(true);
  return files;
}

async function rows(): Promise<{ key: string; kind: string; step: string; bytes: string }[]> {
  const result = await coordinator.pool.query(
    "SELECT key, kind, step, bytes FROM reelsmith.cache_entries ORDER BY key",
  );
  return result.rows;
}

function blobsOf(artifacts: string): string[] {
  const dir = join(artifacts, ".cache", "blobs");
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the cache of runs on the database", () => {
  it("an identical second run takes every clip from the cache: entries are rows, clips are blobs in <artifacts>/.cache", async () => {
    const artifacts = newArtifacts();
    const pipeline = threeClips("lantern");
    const before = simulator.stats().videoJobs.created;
    const first = await runOnce(pipeline, artifacts);
    expect(simulator.stats().videoJobs.created - before).toBe(3);
    const second = await runOnce(pipeline, artifacts);
    expect(simulator.stats().videoJobs.created - before).toBe(3);
    // Copies in the second run's own directory, byte for byte the first run's clips.
    for (const [i, file] of second.entries()) {
      expect(file).not.toBe(first[i]);
      expect(readFileSync(file).equals(readFileSync(first[i]!))).toBe(true);
    }
    const stored = await rows();
    expect(stored).toHaveLength(3);
    for (const row of stored) expect(row).toMatchObject({ kind: "video", step: "clips" });
    expect(stored.every((row) => Number(row.bytes) > 0)).toBe(true);
    expect(existsSync(join(artifacts, ".cache", "entries"))).toBe(false);
    expect(blobsOf(artifacts)).toHaveLength(3);
    const listed = await listDatabaseCache(coordinator);
    expect(listed.map((entry) => entry.key).sort()).toEqual(stored.map((row) => row.key));

    // The estimate reads the same cache: the run again fits a budget below its price (three
    // clips of 4 credits), while a run of clips never made is refused before it is stored.
    const priced = { catalogs: { video_models: videoModels }, maxCredits: 1 };
    const third = await runOnce(pipeline, artifacts, priced);
    expect(third).toHaveLength(3);
    expect(simulator.stats().videoJobs.created - before).toBe(3);
    await expect(runOnce(threeClips("unmade"), artifacts, priced)).rejects.toMatchObject({
      code: "budget_exceeded_by_estimate",
    });
  });

  it("a blob with one flipped byte is never served: exactly that clip is made again", async () => {
    const artifacts = newArtifacts();
    const pipeline = threeClips("heron");
    const first = await runOnce(pipeline, artifacts);
    const damagedClip = readFileSync(first[1]!);
    const blob = blobsOf(artifacts).find((file) => readFileSync(file).equals(damagedClip));
    expect(blob).toBeDefined();
    const bytes = readFileSync(blob!);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
    writeFileSync(blob!, bytes);
    const before = simulator.stats().videoJobs.created;
    const again = await runOnce(pipeline, artifacts);
    expect(simulator.stats().videoJobs.created - before).toBe(1);
    expect(readFileSync(again[1]!).equals(damagedClip)).toBe(true);
    // The clip made again is cached again: a third run makes nothing.
    await runOnce(pipeline, artifacts);
    expect(simulator.stats().videoJobs.created - before).toBe(1);
  });

  it("two workers storing one key at once both succeed, and clearing empties the table and, given the artifacts, the blobs", async () => {
    // Two pools: the puts really run at once, on two connections.
    const pools = [createPool(database.url), createPool(database.url)];
    try {
      const [a, b] = pools.map((pool) => createDatabaseCacheIndex(pool));
      const key = "c".repeat(64);
      const entry = (summary: string) => ({
        key,
        kind: "video",
        step: "clips",
        createdAt: new Date().toISOString(),
        outputs: { file: "clips/0.mp4", id: `video_${summary}` },
        files: { file: { path: "clips/0.mp4", sha256: "d".repeat(64), bytes: 7 } },
        summary,
      });
      const puts = Array.from({ length: 8 }, (_, i) => (i % 2 ? a! : b!).put(entry(`worker ${i}`)));
      const settled = await Promise.allSettled(puts);
      expect(settled.filter((s) => s.status === "rejected")).toEqual([]);
      const stored = await a!.get(key);
      expect(stored?.summary).toMatch(/^worker \d$/);
      expect(stored?.outputs.id).toBe(`video_${stored?.summary}`);
      expect((await rows()).filter((row) => row.key === key)).toHaveLength(1);
      await b!.delete(key);
      expect(await a!.get(key)).toBeUndefined();
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    const artifacts = newArtifacts();
    await runOnce(threeClips("otter"), artifacts);
    const entries = (await rows()).length;
    const kept = await clearDatabaseCache(coordinator);
    expect(kept.entries).toBe(entries);
    expect(kept.blobs).toBeUndefined();
    expect(blobsOf(artifacts)).toHaveLength(3);
    await runOnce(threeClips("otter"), artifacts);
    const cleared = await clearDatabaseCache(coordinator, { artifacts });
    expect(cleared.entries).toBe(3);
    expect(cleared.blobs?.bytes).toBeGreaterThan(0);
    expect(existsSync(join(artifacts, ".cache", "blobs"))).toBe(false);
    expect(await rows()).toEqual([]);
  });
});
