import path from "node:path";
import { resolveService } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";

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
