import type { CacheEntry } from "./cache-entry.js";

/**
 * Where the cache's entries (key → kind, step, outputs, the files' hashes) live. Their bytes
 * are always files by sha256 in the cache directory's `blobs/`; the index only says which
 * blobs a key's result is made of.
 *
 * - `createFileCacheIndex(cacheDir)` (the default): one JSON file per entry under
 *   `<cacheDir>/entries/`.
 * - `@reelsmith/distributed`'s database index: rows of `reelsmith.cache_entries`, shared by
 *   every worker.
 */
export interface CacheIndex {
  /** The entry stored under `key`, or undefined (an unreadable entry is dropped and missing). */
  get(key: string): Promise<CacheEntry | undefined>;
  /** Stores the entry, replacing one under the same key; two writers at once both succeed. */
  put(entry: CacheEntry): Promise<void>;
  /** Forgets the entry (nothing happens when there is none). */
  delete(key: string): Promise<void>;
  /** Every readable entry, newest first. */
  list(): Promise<CacheEntry[]>;
  /** Forgets every entry; returns the entries that were there (blobs stay). */
  clear(): Promise<CacheEntry[]>;
}

/** A cache: its directory (blobs, and entries for the file index) and the index of entries. */
export interface CacheLocation {
  dir: string;
  index: CacheIndex;
}
