import path from "node:path";
import type { estimateRun } from "@reelsmith/runner";
import { resolveService } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import { openCoordinator } from "../distributed/database-option.js";

/** Where a run started here keeps its cache, and the service its entries are keyed by. */
export interface RunCache {
  location: string;
  service: string;
}

/**
 * The cache a run started from this working directory uses (`.reelsmith/cache`, its entries
 * keyed by the configured service, or the built-in simulator when none is), as estimates
 * count it: a unit whose result it holds costs nothing. `plan`, `batch --plan` and the MCP
 * tools price with it, so that their figures are the ones `run` shows.
 * @example const cache = await runCache({}, context); // { location: "/work/.reelsmith/cache", service: "built-in" }
 */
export async function runCache(
  flags: { baseUrl?: string; apiKey?: string },
  context: CliContext,
): Promise<RunCache> {
  const { connection } = await resolveService(flags, context);
  const { BUILT_IN_SERVICE, serviceIdentity } = await import("@reelsmith/runner/cache");
  return {
    location: path.resolve(context.cwd, ".reelsmith", "cache"),
    service: connection.baseURL ? serviceIdentity(connection.baseURL) : BUILT_IN_SERVICE,
  };
}

/** The cache an estimate reads: the working directory's, or a shared database's. */
export type EstimateCache = NonNullable<Parameters<typeof estimateRun>[1]["cache"]>;

/**
 * The cache a run started with these flags is served from, opened for an estimate: with a
 * database (`--database`, or REELSMITH_DATABASE_URL, given as `database`) the one its workers
 * serve from, read there (as `run` and `batch` on that database price themselves), else the
 * working directory's ({@link runCache}). `close` lets go of the database. A database without
 * a service its workers reach (the built-in simulator) has nothing cached for the run: none.
 * @example const { cache, close } = await openRunCache({ database }, context); try { … } finally { await close(); }
 */
export async function openRunCache(
  flags: { baseUrl?: string; apiKey?: string; database?: string; artifacts?: string },
  context: CliContext,
): Promise<{ cache?: EstimateCache; close(): Promise<void> }> {
  const none = async () => undefined;
  const connection = {
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
  };
  if (!flags.database) return { cache: await runCache(connection, context), close: none };
  const { connection: service } = await resolveService(connection, context);
  if (!service.baseURL) return { close: none };
  const coordinator = await openCoordinator(flags.database, context);
  const { databaseRunCache } = await import("@reelsmith/distributed/internal");
  // The clips' blobs are not read by an estimate: only the database's entries are.
  const artifacts = path.resolve(context.cwd, flags.artifacts ?? "runs");
  return {
    cache: databaseRunCache(coordinator.pool, service.baseURL, artifacts),
    close: () => coordinator.close(),
  };
}
