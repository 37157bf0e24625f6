import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { hashFile } from "./cache-key.js";

/** One stored result: the outputs of a step request and the files they name. */
export interface CacheEntry {
  key: string;
  kind: string;
  step: string;
  createdAt: string;
  /** Outputs, with file outputs as paths relative to the run directory. */
  outputs: Record<string, unknown>;
  /** Output fields that name files: field → { path relative to the run dir, blob sha256, bytes }. */
  files: Record<string, { path: string; sha256: string; bytes: number }>;
  /** A short description of the request (model, prompt start) for `cache ls`. */
  summary?: string;
}

/** The default cache directory, relative to the working directory. */
export const DEFAULT_CACHE_DIR = ".reelsmith/cache";

function entryPath(cacheDir: string, key: string): string {
  return join(cacheDir, "entries", key.slice(0, 2), `${key}.json`);
}

function blobPath(cacheDir: string, sha256: string): string {
  return join(cacheDir, "blobs", sha256.slice(0, 2), sha256);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

function linkOrCopy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  const temp = `${to}.${process.pid}.${Date.now()}.tmp`;
  try {
    linkSync(from, temp);
  } catch {
    copyFileSync(from, temp);
  }
  renameSync(temp, to);
}

/**
 * Looks up a cache entry and restores its files into `runDir` (where `placeFiles` says, by
 * output field, else where the first run wrote them); returns the outputs with absolute file
 * paths, or undefined on a miss (or when a blob is gone).
 * @example const outputs = restoreFromCache(".reelsmith/cache", key, "runs/x");
 */
export function restoreFromCache(
  cacheDir: string,
  key: string,
  runDir: string,
  placeFiles: Record<string, string> = {},
): { outputs: Record<string, unknown>; entry: CacheEntry } | undefined {
  const file = entryPath(cacheDir, key);
  if (!existsSync(file)) return undefined;
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(file, "utf8")) as CacheEntry;
  } catch {
    return undefined;
  }
  const outputs = { ...entry.outputs };
  for (const [field, stored] of Object.entries(entry.files)) {
    const blob = blobPath(cacheDir, stored.sha256);
    if (!existsSync(blob)) return undefined;
    const target = join(runDir, placeFiles[field] ?? stored.path);
    if (!inside(runDir, target)) return undefined;
    // Copy (not link) into the run so an edit of the artifact cannot corrupt the cache.
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(blob, target);
    outputs[field] = target;
  }
  return { outputs, entry };
}

/**
 * Stores a successful step result. Files named by top-level string outputs that lie inside
 * `runDir` are stored once by content (hard-linked when possible).
 * @example await storeInCache(".reelsmith/cache", { key, kind: "video", step: "clips", outputs, runDir });
 */
export async function storeInCache(
  cacheDir: string,
  options: {
    key: string;
    kind: string;
    step: string;
    outputs: Record<string, unknown>;
    runDir: string;
    summary?: string;
  },
): Promise<void> {
  const outputs: Record<string, unknown> = { ...options.outputs };
  const files: CacheEntry["files"] = {};
  for (const [field, value] of Object.entries(options.outputs)) {
    if (typeof value !== "string" || !isAbsolute(value) || !inside(options.runDir, value)) continue;
    if (!existsSync(value) || !statSync(value).isFile()) continue;
    const sha256 = await hashFile(value);
    const blob = blobPath(cacheDir, sha256);
    if (!existsSync(blob)) linkOrCopy(value, blob);
    const path = relative(options.runDir, value);
    files[field] = { path, sha256, bytes: statSync(value).size };
    outputs[field] = path;
  }
  const entry: CacheEntry = {
    key: options.key,
    kind: options.kind,
    step: options.step,
    createdAt: new Date().toISOString(),
    outputs,
    files,
    ...(options.summary ? { summary: options.summary } : {}),
  };
  const file = entryPath(cacheDir, options.key);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(entry));
  renameSync(temp, file);
}
