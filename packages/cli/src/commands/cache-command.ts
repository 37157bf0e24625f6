import path from "node:path";
import { clearCache, DEFAULT_CACHE_DIR, listCache } from "@reelsmith/runner/cache";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { formatBytes, formatTable } from "../render/format.js";
import { displayPath } from "../render/summary.js";

/** Flags of `reelsmith cache`. */
export interface CacheFlags {
  cacheDir?: string;
  json?: boolean;
}

function cacheDirOf(flags: CacheFlags, context: CliContext): string {
  return path.resolve(context.cwd, flags.cacheDir ?? DEFAULT_CACHE_DIR);
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * `reelsmith cache ls`: the cached results (kind, step, request summary, size), newest first.
 *
 * @example
 * await cacheListCommand({}, context);
 */
export async function cacheListCommand(flags: CacheFlags, context: CliContext): Promise<number> {
  const cacheDir = cacheDirOf(flags, context);
  const entries = listCache({ cacheDir });
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ cacheDir, entries })}\n`);
    return ExitCode.ok;
  }
  const shown = displayPath(cacheDir, context.cwd);
  if (entries.length === 0) {
    context.stdout.write(`cache ${shown} is empty\n`);
    return ExitCode.ok;
  }
  const rows = [["key", "kind", "step", "size", "created", "request"]];
  for (const entry of entries) {
    rows.push([
      entry.key.slice(0, 12),
      entry.kind,
      entry.step,
      formatBytes(entry.bytes),
      entry.createdAt.replace(/\.\d+Z$/, "Z"),
      shorten(entry.summary ?? "", 50),
    ]);
  }
  const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  context.stdout.write(
    `${formatTable(rows, { rightAlign: [3] })}\n${entries.length} entries, ${formatBytes(total)} in ${shown}\n`,
  );
  return ExitCode.ok;
}

/**
 * `reelsmith cache clear`: delete every cached result (runs keep their own files).
 *
 * @example
 * await cacheClearCommand({}, context);
 */
export async function cacheClearCommand(flags: CacheFlags, context: CliContext): Promise<number> {
  const cacheDir = cacheDirOf(flags, context);
  const { entries, bytes } = clearCache({ cacheDir });
  context.stdout.write(
    `removed ${entries} cache entr${entries === 1 ? "y" : "ies"} (${formatBytes(bytes)}) from ${displayPath(cacheDir, context.cwd)}\n`,
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
    .option("--cache-dir <dir>", "cache directory", DEFAULT_CACHE_DIR)
    .option("--json", "print JSON")
    .action(async (flags: CacheFlags) => done(await cacheListCommand(flags, context)));
  cache
    .command("clear")
    .description("delete every cached result")
    .option("--cache-dir <dir>", "cache directory", DEFAULT_CACHE_DIR)
    .action(async (flags: CacheFlags) => done(await cacheClearCommand(flags, context)));
}
