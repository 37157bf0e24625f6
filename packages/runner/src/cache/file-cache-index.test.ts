import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CacheEntry } from "./cache-entry.js";
import { createFileCacheIndex, entryPath } from "./file-cache-index.js";
import { restoreFromCache, storeInCache } from "./step-cache.js";

function entry(key: string, createdAt: string, extra: Partial<CacheEntry> = {}): CacheEntry {
  return {
    key,
    kind: "video",
    step: "clips",
    createdAt,
    outputs: { file: "clips/0.mp4", id: "video_1" },
    files: { file: { path: "clips/0.mp4", sha256: "f".repeat(64), bytes: 42 } },
    ...extra,
  };
}

describe("file cache index", () => {
  it("keeps each entry as <dir>/entries/<xx>/<key>.json and reads it back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-index-"));
    const index = createFileCacheIndex(dir);
    const stored = entry("ab".padEnd(64, "1"), "2026-01-01T00:00:00.000Z", { summary: "m: p" });
    await index.put(stored);
    const file = join(dir, "entries", "ab", `${stored.key}.json`);
    expect(entryPath(dir, stored.key)).toBe(file);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(stored);
    expect(await index.get(stored.key)).toEqual(stored);
    expect(await index.get("cd".padEnd(64, "2"))).toBeUndefined();
    // No temp file is left beside it.
    expect(readdirSync(join(dir, "entries", "ab"))).toEqual([`${stored.key}.json`]);
  });

  it("reads an entry an earlier version wrote, and drops an unreadable one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-index-"));
    const old = entry("0a".padEnd(64, "3"), "2025-06-01T12:00:00.000Z");
    mkdirSync(join(dir, "entries", "0a"), { recursive: true });
    writeFileSync(join(dir, "entries", "0a", `${old.key}.json`), JSON.stringify(old));
    const broken = "0b".padEnd(64, "4");
    mkdirSync(join(dir, "entries", "0b"), { recursive: true });
    writeFileSync(join(dir, "entries", "0b", `${broken}.json`), '{"key": "0b', "utf8");
    const index = createFileCacheIndex(dir);
    expect(await index.get(old.key)).toEqual(old);
    expect(await index.list()).toEqual([old]);
    expect(await index.get(broken)).toBeUndefined();
    expect(existsSync(join(dir, "entries", "0b", `${broken}.json`))).toBe(false);
  });

  it("replaces an entry on a second put, even two at once, deletes, lists newest first and clears", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-index-"));
    const index = createFileCacheIndex(dir);
    const key = "ee".padEnd(64, "5");
    await Promise.all([
      index.put(entry(key, "2026-01-01T00:00:00.000Z", { summary: "one" })),
      index.put(entry(key, "2026-01-01T00:00:00.000Z", { summary: "two" })),
    ]);
    expect(["one", "two"]).toContain((await index.get(key))?.summary);
    await index.put(entry(key, "2026-01-02T00:00:00.000Z", { summary: "three" }));
    expect((await index.get(key))?.summary).toBe("three");
    const newer = entry("ff".padEnd(64, "6"), "2026-02-01T00:00:00.000Z");
    await index.put(newer);
    expect((await index.list()).map((e) => e.key)).toEqual([newer.key, key]);
    await index.delete(key);
    await index.delete(key);
    expect(await index.get(key)).toBeUndefined();
    expect((await index.clear()).map((e) => e.key)).toEqual([newer.key]);
    expect(await index.list()).toEqual([]);
    expect(existsSync(join(dir, "entries"))).toBe(false);
  });

  it("is where storeInCache and restoreFromCache keep entries when given, blobs staying in the cache directory", async () => {
    const root = mkdtempSync(join(tmpdir(), "reelsmith-index-"));
    const cacheDir = join(root, "cache");
    const index = createFileCacheIndex(join(root, "elsewhere"));
    const run1 = join(root, "run1");
    mkdirSync(run1, { recursive: true });
    writeFileSync(join(run1, "0.mp4"), "clip bytes");
    const key = "12".padEnd(64, "7");
    await storeInCache(
      { dir: cacheDir, index },
      { key, kind: "video", step: "c", outputs: { file: join(run1, "0.mp4") }, runDir: run1 },
    );
    expect(existsSync(join(cacheDir, "entries"))).toBe(false);
    expect(existsSync(join(cacheDir, "blobs"))).toBe(true);
    expect((await index.get(key))?.files.file?.bytes).toBe(10);
    // The directory's own (file) index does not know the entry.
    expect(await restoreFromCache(cacheDir, key, join(root, "run2"))).toBeUndefined();
    const hit = await restoreFromCache({ dir: cacheDir, index }, key, join(root, "run3"));
    expect(readFileSync(String(hit?.outputs.file), "utf8")).toBe("clip bytes");
  });
});
