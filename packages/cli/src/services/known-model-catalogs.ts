import { loadCliProfile } from "../config/cli-profile.js";
import { resolveConnection } from "../config/connection.js";
import type { CliContext } from "../context.js";

/** The model catalogs, by the provider profile's section name (`video_models`, `image_models`, …). */
export type ModelCatalogs = Readonly<Record<string, readonly { id: string }[]>>;

/**
 * The models whose limits and prices are known before anything is sent, by the profile's
 * section name (one per modality core declares: `chat_models`, `video_models`, …): the
 * provider profile's sections that name models (`--config`, `REELSMITH_CONFIG` or `reelsmith.config.yaml`) when there is
 * one; else the built-in simulator's own when no service is configured (the simulator runs in
 * this process); else none here (a real service's video models come from its model list when
 * the run starts).
 *
 * @example
 * const catalogs = await knownModelCatalogs(flags, context); // { video_models: [...], speech_models: [...], … }
 */
export async function knownModelCatalogs(
  flags: { baseUrl?: string; builtIn?: boolean },
  context: CliContext,
): Promise<ModelCatalogs | undefined> {
  const profile = await loadCliProfile(context);
  if (profile) {
    const core = await import("@reelsmith/core/profile");
    const raw = profile.loaded.profile;
    const sections: Record<string, readonly { id: string }[]> = {
      ...core.modelCatalogsFromProfile(raw),
    };
    // The models whose providers price in another unit (usd, characters…), with any rate.
    const units = core.modelPriceUnits(raw);
    if (units.length > 0) sections[core.priceUnitsSection] = units;
    return Object.keys(sections).length > 0 ? sections : undefined;
  }
  const connection = resolveConnection(flags, context.env);
  if (connection.baseURL && !flags.builtIn) return undefined;
  return (await import("@reelsmith/simulator/catalog")).modelCatalogs;
}
