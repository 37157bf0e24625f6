import path from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { databaseOption, databaseUrl } from "../distributed/database-option.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { writeCacheListing } from "../render/cache-listing.js";
import { displayPath } from "../render/display-path.js";
import { formatBytes } from "../render/format.js";

/** The runner's default cache directory (its DEFAULT_CACHE_DIR; the runner loads on use). */
export const DEFAULT_CACHE = ".reelsmith/cache";

// Loaded on use: the database client is needed only with --database.
const databaseCache = () => import("../distributed/database-cache-commands.js");

/** Flags of `reelsmith cache`. */
export interface CacheFlags {
  cacheDir?: string;
  json?: boolean;
  /** The shared database whose cache entries to list or clear (else REELSMITH_DATABASE_URL). */
  database?: string;
  /** With `database`, `clear` also deletes the clips in `<artifacts>/.cache/blobs`. */
  artifacts?: string;
}

function cacheDirOf(flags: CacheFlags, context: CliContext): string {
  return path.resolve(context.cwd, flags.cacheDir ?? DEFAULT_CACHE);
}

/**
 * `reelsmith cache ls`: the cached results (kind, step, request summary, size), newest first.
 *
 * @example
 * await cacheListCommand({}, context);
 */
export async function cacheListCommand(flags: CacheFlags, context: CliContext): Promise<number> {
  const database = databaseUrl(flags, context);
  if (database) return (await databaseCache()).databaseCacheList(database, flags, context);
  const cacheDir = cacheDirOf(flags, context);
  const { listCache } = await import("@reelsmith/runner/cache");
  const entries = listCache({ cacheDir });
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ cacheDir, entries })}\n`);
    return ExitCode.ok;
  }
  writeCacheListing(entries, displayPath(cacheDir, context.cwd), context);
  return ExitCode.ok;
}

/**
 * `reelsmith cache clear`: delete every cached result (runs keep their own files).
 *
 * @example
 * await cacheClearCommand({}, context);
 */
export async function cacheClearCommand(flags: CacheFlags, context: CliContext): Promise<number> {
  const database = databaseUrl(flags, context);
  if (database) return (await databaseCache()).databaseCacheClear(database, flags, context);
  if (flags.artifacts) {
    throw new UsageError(
      "--artifacts needs --database: it names where a shared cache keeps clips",
      {
        code: "artifacts_needs_database",
        hint: "pass --database postgres://… (or set REELSMITH_DATABASE_URL); a local cache is --cache-dir",
      },
    );
  }
  const cacheDir = cacheDirOf(flags, context);
  const { clearCache } = await import("@reelsmith/runner/cache");
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
    .description(
      "The content-addressed cache of chat and video results (.reelsmith/cache), or with --database the shared cache of runs on many machines.",
    );
  cache
    .command("ls")
    .description("list cached results")
    .option("--cache-dir <dir>", "cache directory", DEFAULT_CACHE)
    .addOption(databaseOption())
    .option("--json", "print JSON")
    .action(async (flags: CacheFlags) => done(await cacheListCommand(flags, context)));
  cache
    .command("clear")
    .description("delete every cached result")
    .option("--cache-dir <dir>", "cache directory", DEFAULT_CACHE)
    .addOption(databaseOption())
    .option(
      "--artifacts <dir>",
      "with --database: also delete the cached clips in <dir>/.cache/blobs",
    )
    .action(async (flags: CacheFlags) => done(await cacheClearCommand(flags, context)));
}
