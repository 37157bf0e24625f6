import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { CacheEntry } from "./cache-entry.js";
import type { CacheIndex } from "./cache-index.js";

/** Where the file index keeps a key's entry: `<cacheDir>/entries/<key[0..2]>/<key>.json`. */
export function entryPath(cacheDir: string, key: string): string {
  return join(cacheDir, "entries", key.slice(0, 2), `${key}.json`);
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...walk(path));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** The entry files under `<cacheDir>/entries` (readable or not). */
export function entryFiles(cacheDir: string): string[] {
  return walk(join(cacheDir, "entries")).filter((file) => file.endsWith(".json"));
}

/** Reads one entry file; undefined when it is missing or not an entry. */
function readEntry(file: string): CacheEntry | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, "utf8")) as CacheEntry;
    return entry && typeof entry.key === "string" ? entry : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every readable entry of a file index, newest first (synchronous, for `cache ls`).
 * @example readFileEntries(".reelsmith/cache").length
 */
export function readFileEntries(cacheDir: string): CacheEntry[] {
  return entryFiles(cacheDir)
    .flatMap((file) => readEntry(file) ?? [])
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

let temps = 0;

/**
 * The default cache index: one JSON file per entry under `<cacheDir>/entries/xx/<key>.json`
 * (the layout every earlier version wrote, so existing caches keep working). Writes go to a
 * temp file renamed into place, so a reader never sees half an entry.
 * @example const index = createFileCacheIndex(".reelsmith/cache");
 */
export function createFileCacheIndex(cacheDir: string): CacheIndex {
  return {
    async get(key) {
      const file = entryPath(cacheDir, key);
      if (!existsSync(file)) return undefined;
      const entry = readEntry(file);
      // An unreadable entry can never be served: it goes, and the result is fetched again.
      if (!entry) rmSync(file, { force: true });
      return entry;
    },
    async put(entry) {
      const file = entryPath(cacheDir, entry.key);
      mkdirSync(dirname(file), { recursive: true });
      temps += 1;
      const temp = `${file}.${process.pid}.${temps}.tmp`;
      try {
        await writeFile(temp, JSON.stringify(entry));
        renameSync(temp, file);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
    },
    async delete(key) {
      rmSync(entryPath(cacheDir, key), { force: true });
    },
    async list() {
      return readFileEntries(cacheDir);
    },
    async clear() {
      const entries = readFileEntries(cacheDir);
      rmSync(join(cacheDir, "entries"), { recursive: true, force: true });
      return entries;
    },
  };
}
