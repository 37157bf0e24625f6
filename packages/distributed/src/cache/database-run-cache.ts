import {
  type CacheLocation,
  type EstimateCache,
  type ModelRouting,
  serviceIdentity,
} from "@reelsmith/runner/cache";
import type { Pool } from "pg";
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
