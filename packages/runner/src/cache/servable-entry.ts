import { stat } from "node:fs/promises";
import type { CacheEntry } from "./cache-entry.js";
import type { CacheLocation } from "./cache-index.js";
import { blobPath } from "./step-cache.js";

/**
 * The entry stored under `key` when a run could be served it: every file it names has its
 * blob, of the size the entry recorded. What a plan or a fan-out's admission counts as free
 * (a unit whose blob is gone is fetched again, and paid). The bytes themselves are checked
 * only when the entry is restored; a blob damaged at the same size still counts here.
 * @example if (await servableEntry(cacheLocation(".reelsmith/cache"), key)) hits += 1;
 */
export async function servableEntry(
  cache: CacheLocation,
  key: string,
): Promise<CacheEntry | undefined> {
  const entry = await cache.index.get(key);
  if (!entry) return undefined;
  for (const stored of Object.values(entry.files ?? {})) {
    const found = await stat(blobPath(cache.dir, stored.sha256)).catch(() => undefined);
    if (!found?.isFile() || found.size !== stored.bytes) return undefined;
  }
  return entry;
}
