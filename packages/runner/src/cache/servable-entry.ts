import { stat } from "node:fs/promises";
import type { CacheEntry } from "./cache-entry.js";
import type { CacheLocation } from "./cache-index.js";
import { entryOutputs } from "./entry-outputs.js";
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

/**
 * The outputs a unit served `entry` will read, as an estimate knows them before the run: each
 * file at its blob (the bytes the run copies into its directory, which is what a request that
 * names the file is keyed by), then revived as the kind's cache policy revives a hit.
 * @example servedOutputs(cache.dir, entry, kind.cache, request) // { file: ".reelsmith/cache/blobs/9f/9f86…", duration: 4.2 }
 */
export function servedOutputs(
  cacheDir: string,
  entry: CacheEntry,
  policy: { revive?(outputs: Record<string, unknown>, spec: never): Record<string, unknown> },
  request: Record<string, unknown>,
): Record<string, unknown> {
  const outputs = entryOutputs(entry, (_field, file) => blobPath(cacheDir, file.sha256));
  return policy.revive?.(outputs, request as never) ?? outputs;
}
