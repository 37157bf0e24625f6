import type { VideoModelCatalog } from "@reelsmith/core/catalog";
import { loadCliProfile } from "../config/cli-profile.js";
import { resolveConnection } from "../config/connection.js";
import type { CliContext } from "../context.js";

/**
 * The video models whose limits are known before anything is sent: the provider profile's
 * (`--config`, `REELSMITH_CONFIG` or `reelsmith.config.yaml`) when there is one; else the
 * built-in simulator's own when no service is configured (the simulator runs in this
 * process); else none here (a real service's come from its model list when the run starts).
 *
 * @example
 * const videoModels = await knownVideoModels(flags, context);
 */
export async function knownVideoModels(
  flags: { baseUrl?: string; builtIn?: boolean },
  context: CliContext,
): Promise<VideoModelCatalog | undefined> {
  const profile = await loadCliProfile(context);
  if (profile) return profile.loaded.catalog.length > 0 ? profile.loaded.catalog : undefined;
  const connection = resolveConnection(flags, context.env);
  if (connection.baseURL && !flags.builtIn) return undefined;
  return (await import("@reelsmith/simulator/catalog")).videoModels;
}
