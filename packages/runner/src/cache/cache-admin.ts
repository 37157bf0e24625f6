import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { type CacheEntry, entryBytes } from "./cache-entry.js";
import { entryFiles, readFileEntries } from "./file-cache-index.js";
import { DEFAULT_CACHE_DIR } from "./step-cache.js";

/** One line of `reelsmith cache ls`. */
export interface CacheListing {
  key: string;
  kind: string;
  step: string;
  createdAt: string;
  summary?: string;
  /** Bytes of the files the entry names. */
  bytes: number;
}

/**
 * The `cache ls` line of an entry, whichever index it came from.
 * @example entries.map(cacheListing)
 */
export function cacheListing(entry: CacheEntry): CacheListing {
  return {
    key: entry.key,
    kind: entry.kind,
    step: entry.step,
    createdAt: entry.createdAt,
    ...(entry.summary ? { summary: entry.summary } : {}),
    bytes: entryBytes(entry),
  };
}

/**
 * Lists the entries of a cache directory (its file index), newest first.
 * @example for (const e of listCache()) console.log(e.kind, e.step, e.summary);
 */
export function listCache(options: { cacheDir?: string } = {}): CacheListing[] {
  // An unreadable entry is not listed; `clearCache` removes it.
  return readFileEntries(options.cacheDir ?? DEFAULT_CACHE_DIR).map(cacheListing);
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Deletes a cache directory's blobs, whichever index named them. Returns the bytes that went.
 * @example clearBlobs("/mnt/reels/.cache").bytes
 */
export function clearBlobs(cacheDir: string): { bytes: number } {
  const blobs = join(cacheDir, "blobs");
  const bytes = filesUnder(blobs).reduce((sum, file) => sum + statSync(file).size, 0);
  rmSync(blobs, { recursive: true, force: true });
  return { bytes };
}

/**
 * Deletes the whole cache (entries and blobs). Returns how many entries and bytes went.
 * @example const { entries, bytes } = clearCache();
 */
export function clearCache(options: { cacheDir?: string } = {}): {
  entries: number;
  bytes: number;
} {
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const entries = entryFiles(cacheDir).length;
  const entryBytesOnDisk = filesUnder(join(cacheDir, "entries")).reduce(
    (sum, file) => sum + statSync(file).size,
    0,
  );
  rmSync(join(cacheDir, "entries"), { recursive: true, force: true });
  const { bytes } = clearBlobs(cacheDir);
  return { entries, bytes: entryBytesOnDisk + bytes };
}
