import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { type CacheEntry, DEFAULT_CACHE_DIR } from "./step-cache.js";

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

/**
 * Lists the cache entries, newest first.
 * @example for (const e of listCache()) console.log(e.kind, e.step, e.summary);
 */
export function listCache(options: { cacheDir?: string } = {}): CacheListing[] {
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const listings: CacheListing[] = [];
  for (const file of walk(join(cacheDir, "entries"))) {
    if (!file.endsWith(".json")) continue;
    try {
      const entry = JSON.parse(readFileSync(file, "utf8")) as CacheEntry;
      listings.push({
        key: entry.key,
        kind: entry.kind,
        step: entry.step,
        createdAt: entry.createdAt,
        ...(entry.summary ? { summary: entry.summary } : {}),
        bytes: Object.values(entry.files ?? {}).reduce((sum, f) => sum + f.bytes, 0),
      });
    } catch {
      // An unreadable entry is not listed; `clearCache` removes it.
    }
  }
  return listings.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
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
  const entries = walk(join(cacheDir, "entries")).filter((f) => f.endsWith(".json")).length;
  const bytes = walk(cacheDir).reduce((sum, f) => sum + statSync(f).size, 0);
  for (const sub of ["entries", "blobs"])
    rmSync(join(cacheDir, sub), { recursive: true, force: true });
  return { entries, bytes };
}
