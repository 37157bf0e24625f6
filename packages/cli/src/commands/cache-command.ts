import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { formatBytes, formatTable } from "../render/format.js";
import { displayPath } from "../render/summary.js";

/** One entry of the cache directory (a cached result, possibly a folder of files). */
export interface CacheEntry {
  name: string;
  bytes: number;
  files: number;
  modified: Date;
}

async function measure(file: string): Promise<{ bytes: number; files: number; modified: number }> {
  const info = await stat(file);
  if (!info.isDirectory()) return { bytes: info.size, files: 1, modified: info.mtimeMs };
  let bytes = 0;
  let files = 0;
  let modified = info.mtimeMs;
  for (const child of await readdir(file)) {
    const inner = await measure(path.join(file, child));
    bytes += inner.bytes;
    files += inner.files;
    modified = Math.max(modified, inner.modified);
  }
  return { bytes, files, modified };
}

/**
 * The entries of a cache directory with their sizes, newest first (empty when it does not exist).
 *
 * @example
 * const entries = await listCache(".reelsmith/cache");
 */
export async function listCache(cacheDir: string): Promise<CacheEntry[]> {
  let names: string[];
  try {
    names = await readdir(cacheDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const entries: CacheEntry[] = [];
  for (const name of names) {
    const measured = await measure(path.join(cacheDir, name));
    entries.push({
      name,
      bytes: measured.bytes,
      files: measured.files,
      modified: new Date(measured.modified),
    });
  }
  return entries.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** Flags of `reelsmith cache`. */
export interface CacheFlags {
  cacheDir?: string;
  json?: boolean;
}

function cacheDirOf(flags: CacheFlags, context: CliContext): string {
  return path.resolve(context.cwd, flags.cacheDir ?? path.join(".reelsmith", "cache"));
}

/**
 * `reelsmith cache ls`: what the cache holds and how much room it takes.
 *
 * @example
 * await cacheListCommand({}, context);
 */
export async function cacheListCommand(flags: CacheFlags, context: CliContext): Promise<number> {
  const dir = cacheDirOf(flags, context);
  const entries = await listCache(dir);
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ cacheDir: dir, entries })}\n`);
    return ExitCode.ok;
  }
  const shown = displayPath(dir, context.cwd);
  if (entries.length === 0) {
    context.stdout.write(`cache ${shown} is empty\n`);
    return ExitCode.ok;
  }
  const rows = [["entry", "files", "size", "modified"]];
  for (const entry of entries) {
    rows.push([
      entry.name,
      String(entry.files),
      formatBytes(entry.bytes),
      entry.modified.toISOString(),
    ]);
  }
  const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  context.stdout.write(
    `${formatTable(rows, { rightAlign: [1, 2] })}\n${entries.length} entries, ${formatBytes(total)} in ${shown}\n`,
  );
  return ExitCode.ok;
}

/**
 * `reelsmith cache clear`: delete the cache directory (runs keep their own copies).
 *
 * @example
 * await cacheClearCommand({}, context);
 */
export async function cacheClearCommand(flags: CacheFlags, context: CliContext): Promise<number> {
  const dir = cacheDirOf(flags, context);
  const entries = await listCache(dir);
  await rm(dir, { recursive: true, force: true });
  const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  context.stdout.write(
    `removed ${entries.length} cache entries (${formatBytes(total)}) from ${displayPath(dir, context.cwd)}\n`,
  );
  return ExitCode.ok;
}

/**
 * Declare `cache ls|clear` on the program.
 *
 * @example
 * registerCacheCommand(program, context, (code) => (exitCode = code));
 */
export function registerCacheCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  const cache = program
    .command("cache")
    .summary("list or clear the result cache")
    .description("The content-addressed cache of chat and video results (.reelsmith/cache).");
  cache
    .command("ls")
    .description("list cached results")
    .option("--cache-dir <dir>", "cache directory", path.join(".reelsmith", "cache"))
    .option("--json", "print JSON")
    .action(async (flags: CacheFlags) => done(await cacheListCommand(flags, context)));
  cache
    .command("clear")
    .description("delete every cached result")
    .option("--cache-dir <dir>", "cache directory", path.join(".reelsmith", "cache"))
    .action(async (flags: CacheFlags) => done(await cacheClearCommand(flags, context)));
}
