import {
  type CacheLocation,
  type EstimateCache,
  type ModelRouting,
  serviceIdentity,
} from "@reelsmith/runner/cache";
import type { Pool } from "pg";
import { createPool } from "../database/pool.js";
import { hasTables, SCHEMA } from "../database/schema.js";
import { artifactsCacheDir } from "../store/run-paths.js";
import { createDatabaseCacheIndex } from "./database-cache-index.js";

/**
 * The service a run's cache entries are keyed by: its address, as a local run's are (one
 * service's results serve any of its accounts). The workers' units and every estimate of the
 * run (on submission, on the worker, at a fan-out's admission) use this one.
 * @example cacheServiceOf("https://media.example.com/") // "https://media.example.com"
 */
export function cacheServiceOf(baseURL: string): string {
  return serviceIdentity(baseURL);
}

/**
 * The cache the workers serve a run of this service from, as an estimate reads it: the
 * database's entries, keyed by {@link cacheServiceOf} (a model `routing` sends to another
 * provider account by that account's address, as its units key it), and the artifacts
 * directory's blobs. A unit it holds costs the run nothing.
 * @example await estimateRun(pipeline, { inputs, cache: databaseRunCache(pool, "https://media.example.com", "/mnt/reels") });
 */
export function databaseRunCache(
  pool: Pool,
  baseURL: string,
  artifacts: string,
  routing?: ModelRouting,
): EstimateCache & { location: CacheLocation } {
  return {
    location: { dir: artifactsCacheDir(artifacts), index: createDatabaseCacheIndex(pool) },
    service: cacheServiceOf(baseURL),
    ...(routing ? { routing } : {}),
  };
}

/**
 * {@link databaseRunCache} opened for a plan, which must not change the database: one
 * connection and no schema made. A database without reelsmith's tables yet (no worker ever
 * started on it) holds nothing cached: `cache` is then undefined, and every request priced.
 * Waits for the database up to `timeoutMs` (then a `DatabaseWaitError`); `close` lets go of it.
 * @example const { cache, close } = await openDatabaseRunCache(url, { baseURL, artifacts, timeoutMs: 10_000 });
 */
export async function openDatabaseRunCache(
  url: string,
  options: {
    baseURL: string;
    artifacts: string;
    routing?: ModelRouting;
    timeoutMs: number;
    signal?: AbortSignal;
  },
): Promise<{ cache?: EstimateCache & { location: CacheLocation }; close(): Promise<void> }> {
  const pool = createPool(url, undefined, 1);
  const close = () => pool.end().catch(() => undefined);
  let cached: boolean;
  try {
    cached = await hasTables(pool, url, [`${SCHEMA}.cache_entries`], {
      forMs: options.timeoutMs,
      signal: options.signal,
    });
  } catch (error) {
    await close();
    throw error;
  }
  if (!cached) {
    await close();
    return { close: async () => undefined };
  }
  return {
    cache: databaseRunCache(pool, options.baseURL, options.artifacts, options.routing),
    close,
  };
}
