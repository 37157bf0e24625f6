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

/** Model catalogs beyond video, by the provider profile's section names (`image_models`, …). */
export type KnownModelCatalogs = Readonly<Record<string, readonly { id: string }[]>>;

/**
 * The model catalogs beyond video known before anything is sent, by the profile's own section
 * names: the provider profile's `image_models`, `speech_models` and `transcription_models`
 * (as core reads them) when there is one; else the built-in simulator's own when no service is
 * configured; else none (nothing of them is checked or priced before the run).
 *
 * @example
 * const catalogs = await knownModelCatalogs(flags, context); // { image_models: [...], … }
 */
export async function knownModelCatalogs(
  flags: { baseUrl?: string; builtIn?: boolean },
  context: CliContext,
): Promise<KnownModelCatalogs | undefined> {
  const profile = await loadCliProfile(context);
  if (profile) {
    const { imageModelsFromProfile, speechModelsFromProfile, transcriptionModelsFromProfile } =
      await import("@reelsmith/core/profile");
    const { profile: written } = profile.loaded;
    return {
      image_models: imageModelsFromProfile(written),
      speech_models: speechModelsFromProfile(written),
      transcription_models: transcriptionModelsFromProfile(written),
    };
  }
  const connection = resolveConnection(flags, context.env);
  if (connection.baseURL && !flags.builtIn) return undefined;
  const simulator = await import("@reelsmith/simulator/catalog");
  return {
    // As core reads a profile's: the price per image under `price`.
    image_models: simulator.imageModels.map(({ creditsPerImage, ...model }) => ({
      ...model,
      price: { perImage: creditsPerImage },
    })),
    speech_models: simulator.speechModels.map(({ creditsPer1000Characters, ...model }) => ({
      ...model,
      price: { per1000Characters: creditsPer1000Characters },
    })),
    transcription_models: simulator.transcriptionModels.map(({ creditsPerMinute, ...model }) => ({
      ...model,
      price: { perMinute: creditsPerMinute },
    })),
  };
}
