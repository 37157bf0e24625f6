import {
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import type { CacheEntry } from "./cache-entry.js";
import type { CacheLocation } from "./cache-index.js";
import { hashFile } from "./cache-key.js";
import { entryOutputs, listItem } from "./entry-outputs.js";
import { createFileCacheIndex } from "./file-cache-index.js";

/** The default cache directory, relative to the working directory. */
export const DEFAULT_CACHE_DIR = ".reelsmith/cache";

/**
 * A cache given as a directory (its entries in the file index) or as a directory with an index.
 * @example cacheLocation(".reelsmith/cache").index // the file index
 */
export function cacheLocation(cache: string | CacheLocation): CacheLocation {
  return typeof cache === "string" ? { dir: cache, index: createFileCacheIndex(cache) } : cache;
}

/** Where a blob's bytes live: `<cacheDir>/blobs/<sha256[0..2]>/<sha256>`. */
export function blobPath(cacheDir: string, sha256: string): string {
  return join(cacheDir, "blobs", sha256.slice(0, 2), sha256);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

let temps = 0;

/**
 * Copies `from` to a temp file beside `to` (a reflink where the file system offers one, else
 * a byte copy: never a hard link, so neither side can change the other's bytes) and returns
 * the copy's sha256 and the temp path; the caller renames it into place.
 */
async function copyToTemp(from: string, to: string): Promise<{ temp: string; sha256: string }> {
  mkdirSync(dirname(to), { recursive: true });
  temps += 1;
  const temp = `${to}.${process.pid}.${temps}.tmp`;
  copyFileSync(from, temp, constants.COPYFILE_FICLONE);
  try {
    return { temp, sha256: await hashFile(temp) };
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Looks up a cache entry and restores its files into `runDir` (where `placeFiles` says, by
 * output field, else where the first run wrote them); returns the outputs with absolute file
 * paths, or undefined on a miss. Every file is copied (never linked) and the copy's bytes are
 * checked against the sha256 stored with the entry: a damaged or missing blob drops the entry
 * and is a miss, so the result is fetched again instead of a damaged file being served.
 * `cache` is the cache directory (entries in the file index) or a directory with an index.
 * @example const hit = await restoreFromCache(".reelsmith/cache", key, "runs/x");
 */
export async function restoreFromCache(
  cache: string | CacheLocation,
  key: string,
  runDir: string,
  placeFiles: Record<string, string> = {},
): Promise<{ outputs: Record<string, unknown>; entry: CacheEntry } | undefined> {
  const { dir: cacheDir, index } = cacheLocation(cache);
  const entry = await index.get(key);
  if (!entry) return undefined;
  // Each file where this run wants it, the outputs naming it there.
  const targetOf = (field: string, stored: { path: string }) =>
    join(runDir, placeFiles[field] ?? stored.path);
  const outputs = entryOutputs(entry, targetOf);
  const placed: { temp: string; target: string }[] = [];
  const discard = () => {
    for (const { temp } of placed) rmSync(temp, { force: true });
  };
  for (const [field, stored] of Object.entries(entry.files ?? {})) {
    const blob = blobPath(cacheDir, stored.sha256);
    const target = targetOf(field, stored);
    if (!inside(runDir, target)) {
      discard();
      return undefined;
    }
    let copy: { temp: string; sha256: string };
    try {
      copy = await copyToTemp(blob, target);
    } catch {
      discard();
      await index.delete(key); // the blob is gone: the entry cannot be served
      return undefined;
    }
    placed.push({ temp: copy.temp, target });
    if (copy.sha256 !== stored.sha256) {
      // Damaged bytes: never served; the blob and every entry naming it are fetched again.
      discard();
      rmSync(blob, { force: true });
      await index.delete(key);
      return undefined;
    }
  }
  for (const { temp, target } of placed) renameSync(temp, target);
  return { outputs, entry };
}

/**
 * Stores a successful step result. Files named by top-level string outputs that lie inside
 * `runDir` are stored once by content, as copies (reflinks where possible, never hard links),
 * before the entry that names them, so an entry never names a blob not yet there.
 * @example await storeInCache(".reelsmith/cache", { key, kind: "video", step: "clips", outputs, runDir });
 */
export async function storeInCache(
  cache: string | CacheLocation,
  options: {
    key: string;
    kind: string;
    step: string;
    outputs: Record<string, unknown>;
    runDir: string;
    summary?: string;
    worth?: CacheEntry["worth"];
  },
): Promise<void> {
  const { dir: cacheDir, index } = cacheLocation(cache);
  const outputs: Record<string, unknown> = { ...options.outputs };
  const files: CacheEntry["files"] = {};
  // A list whose items are all files of the run is stored item by item (`files.0`, …).
  const named: [string, string][] = [];
  for (const [field, value] of Object.entries(options.outputs)) {
    if (
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((item) => isRunFile(item, options.runDir))
    ) {
      value.forEach((item, at) => {
        named.push([`${field}.${at}`, item as string]);
      });
      outputs[field] = value.map((item) => relative(options.runDir, item as string));
    } else if (isRunFile(value, options.runDir)) named.push([field, value as string]);
  }
  for (const [field, value] of named) {
    // The blob is a copy whose own bytes name it: a later edit of the run's file cannot reach it.
    const copy = await copyToTemp(value, join(cacheDir, "blobs", "incoming"));
    const blob = blobPath(cacheDir, copy.sha256);
    const bytes = statSync(copy.temp).size;
    // Renamed over a blob already there: its bytes may have been damaged since, these were
    // just hashed. A reader copying the old file keeps reading it whole (its own inode).
    mkdirSync(dirname(blob), { recursive: true });
    renameSync(copy.temp, blob);
    const path = relative(options.runDir, value);
    files[field] = { path, sha256: copy.sha256, bytes };
    if (!listItem(field, outputs)) outputs[field] = path;
  }
  const entry: CacheEntry = {
    key: options.key,
    kind: options.kind,
    step: options.step,
    createdAt: new Date().toISOString(),
    outputs,
    files,
    ...(options.summary ? { summary: options.summary } : {}),
    ...(options.worth ? { worth: options.worth } : {}),
  };
  await index.put(entry);
}

/** True for an existing file inside the run directory, named by its absolute path. */
function isRunFile(value: unknown, runDir: string): boolean {
  return (
    typeof value === "string" &&
    isAbsolute(value) &&
    inside(runDir, value) &&
    existsSync(value) &&
    statSync(value).isFile()
  );
}
