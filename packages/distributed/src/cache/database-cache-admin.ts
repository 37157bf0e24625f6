import { join } from "node:path";
import type { CacheListing } from "@reelsmith/runner/cache";
import { cacheListing, clearBlobs, entryBytes } from "@reelsmith/runner/cache";
import type { Pool } from "pg";
import { artifactsCacheDir } from "../store/run-paths.js";
import { createDatabaseCacheIndex } from "./database-cache-index.js";

/**
 * The database's cache entries as `reelsmith cache ls` shows them, newest first.
 * @example const entries = await listDatabaseCache(coordinator);
 */
export async function listDatabaseCache(database: { pool: Pool }): Promise<CacheListing[]> {
  return (await createDatabaseCacheIndex(database.pool).list()).map(cacheListing);
}

/** What `clearDatabaseCache` removed. */
export interface ClearedDatabaseCache {
  /** Entries deleted from `reelsmith.cache_entries`. */
  entries: number;
  /** Bytes of the clips those entries named. */
  bytes: number;
  /** With `artifacts`: the blob directory emptied and the bytes that went from it. */
  blobs?: { dir: string; bytes: number };
}

/**
 * Deletes every cache entry of the database. The clips' blobs are files in an artifacts
 * directory the database does not know (each run names its own): they are deleted too only
 * when `artifacts` is given, all of `<artifacts>/.cache/blobs` (a blob no entry names any more
 * is never used again). Runs keep their own files either way.
 * @example const { entries } = await clearDatabaseCache(coordinator, { artifacts: "/mnt/reels" });
 */
export async function clearDatabaseCache(
  database: { pool: Pool },
  options: { artifacts?: string } = {},
): Promise<ClearedDatabaseCache> {
  const removed = await createDatabaseCacheIndex(database.pool).clear();
  const cleared: ClearedDatabaseCache = {
    entries: removed.length,
    bytes: removed.reduce((sum, entry) => sum + entryBytes(entry), 0),
  };
  if (options.artifacts) {
    const dir = artifactsCacheDir(options.artifacts);
    cleared.blobs = { dir: join(dir, "blobs"), bytes: clearBlobs(dir).bytes };
  }
  return cleared;
}
