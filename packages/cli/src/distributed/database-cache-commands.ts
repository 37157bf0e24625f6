import path from "node:path";
import { clearDatabaseCache, listDatabaseCache } from "@reelsmith/distributed/admin";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { writeCacheListing } from "../render/cache-listing.js";
import { displayPath } from "../render/display-path.js";
import { formatBytes } from "../render/format.js";
import { openCoordinator } from "./database-option.js";

/** The database as the output names it: no user name or password. */
function displayDatabase(url: string): string {
  const parsed = new URL(url);
  return `database ${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/**
 * `cache ls --database URL`: the shared cache's entries (rows of `reelsmith.cache_entries`),
 * in the same table as a local cache's.
 * @example const code = await databaseCacheList(url, {}, context);
 */
export async function databaseCacheList(
  database: string,
  flags: { json?: boolean },
  context: CliContext,
): Promise<number> {
  const coordinator = await openCoordinator(database, context);
  try {
    const entries = await listDatabaseCache(coordinator);
    const shown = displayDatabase(database);
    if (flags.json) context.stdout.write(`${JSON.stringify({ database: shown, entries })}\n`);
    else writeCacheListing(entries, shown, context);
    return ExitCode.ok;
  } finally {
    await coordinator.close();
  }
}

/**
 * `cache clear --database URL [--artifacts DIR]`: deletes the shared cache's entries; the
 * clips (files by sha256 in an artifacts directory the database does not know) go too only
 * when `--artifacts` names that directory.
 * @example const code = await databaseCacheClear(url, { artifacts: "/mnt/reels" }, context);
 */
export async function databaseCacheClear(
  database: string,
  flags: { artifacts?: string },
  context: CliContext,
): Promise<number> {
  const coordinator = await openCoordinator(database, context);
  try {
    const artifacts = flags.artifacts ? path.resolve(context.cwd, flags.artifacts) : undefined;
    const cleared = await clearDatabaseCache(coordinator, artifacts ? { artifacts } : {});
    const removed = `removed ${cleared.entries} cache entr${cleared.entries === 1 ? "y" : "ies"}`;
    const shown = displayDatabase(database);
    context.stdout.write(
      cleared.blobs
        ? `${removed} (${formatBytes(cleared.blobs.bytes)}) from ${shown} and ${displayPath(cleared.blobs.dir, context.cwd)}\n`
        : `${removed} from ${shown}; their clips (${formatBytes(cleared.bytes)}) stay in the artifacts directory's .cache/blobs (pass --artifacts <dir> to delete them too)\n`,
    );
    return ExitCode.ok;
  } finally {
    await coordinator.close();
  }
}
