import path from "node:path";
import type { EstimateCache, ModelRouting } from "@reelsmith/runner/cache";
import { resolveService } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import { databaseTimeoutMs } from "../distributed/database-option.js";

/**
 * Where a run started here keeps its cache, the service its entries are keyed by, and the
 * profile's routing of models to other provider accounts (their requests keyed by theirs).
 */
export interface RunCache {
  location: string;
  service: string;
  routing?: ModelRouting;
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
  const { connection, profile, service } = await resolveService(flags, context);
  const { BUILT_IN_SERVICE, serviceIdentity } = await import("@reelsmith/runner/cache");
  const routing = await profileRouting(profile, service);
  return {
    location: path.resolve(context.cwd, ".reelsmith", "cache"),
    service: connection.baseURL ? serviceIdentity(connection.baseURL) : BUILT_IN_SERVICE,
    ...(routing ? { routing } : {}),
  };
}

/** The profile's models routed to its provider accounts (`providers:`), as the run's client routes them. */
async function profileRouting(
  profile: Awaited<ReturnType<typeof resolveService>>["profile"],
  service: Awaited<ReturnType<typeof resolveService>>["service"],
): Promise<ModelRouting | undefined> {
  const accounts = service?.accounts ?? [];
  if (!profile || accounts.length === 0) return undefined;
  const [{ accountRouting }, { modelProviders }] = await Promise.all([
    import("@reelsmith/runner/cache"),
    import("@reelsmith/core/profile"),
  ]);
  return accountRouting(accounts, modelProviders(profile.loaded.profile));
}

/** How long a plan waits for the database whose cache it reads, at most. */
const PLAN_DATABASE_WAIT_MS = 10_000;

/**
 * The cache a run started with these flags is served from, opened for an estimate: with a
 * database (`--database`, or REELSMITH_DATABASE_URL, given as `database`) the one its workers
 * serve from, read there (as `run` and `batch` on that database price themselves), else the
 * working directory's ({@link runCache}). `close` lets go of the database. A database without
 * a service its workers reach (the built-in simulator) has nothing cached for the run: none;
 * nor has one that does not answer within 10 s (said through `note`): every request priced.
 * The database is only read: a plan makes no schema there, and one no worker has used yet
 * (without reelsmith's tables) has nothing cached.
 * @example const { cache, close } = await openRunCache({ database }, context); try { … } finally { await close(); }
 */
export async function openRunCache(
  flags: { baseUrl?: string; apiKey?: string; database?: string; artifacts?: string },
  context: CliContext,
  note: (line: string) => void,
): Promise<{ cache?: EstimateCache; close(): Promise<void> }> {
  const none = async () => undefined;
  const connection = {
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
  };
  if (!flags.database) return { cache: await runCache(connection, context), close: none };
  const resolved = await resolveService(connection, context);
  const { baseURL } = resolved.connection;
  if (!baseURL) return { close: none };
  const { openDatabaseRunCache } = await import("@reelsmith/distributed/internal");
  // An entry counts only with its files in the workers' shared directory, as seen from here.
  const artifacts = path.resolve(context.cwd, flags.artifacts ?? "runs");
  const routing = await profileRouting(resolved.profile, resolved.service);
  try {
    // Read only: a plan makes no schema on a database no worker has used yet.
    const opened = await openDatabaseRunCache(flags.database, {
      baseURL,
      artifacts,
      ...(routing ? { routing } : {}),
      timeoutMs: Math.min(databaseTimeoutMs(context), PLAN_DATABASE_WAIT_MS),
      signal: context.signal,
    });
    if (!opened.cache)
      note(
        "the database has no reelsmith tables yet (no worker has used it): nothing is cached there",
      );
    return opened;
  } catch (error) {
    if (context.signal.aborted) throw error;
    // A plan does without it: every request priced, the most a run there can cost.
    note(
      `the database did not answer (${(error as Error).message}): priced without its cache, so a run there may cost less`,
    );
    return { close: none };
  }
}
