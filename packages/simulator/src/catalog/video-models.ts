import { referenceVideoModels } from "@reelsmith/core";
import type { VideoModelCatalog, VideoModelLimits } from "./video-model-limits.js";

/**
 * The three video models the simulator serves (spec 2.3): exactly `@reelsmith/core`'s reference
 * catalog, so the limits a client checks before sending and the ones served cannot drift apart.
 *
 * @example
 * const long = videoModels.find((model) => model.id === "reel-video-3-long"); // maxSeconds 20
 */
export const videoModels: VideoModelCatalog = referenceVideoModels;

/**
 * How long each model "thinks", as a multiplier of the base timing (see the README):
 * the lite model is twice as fast, the long model half again as slow.
 */
export const videoSpeedFactors: Readonly<Record<string, number>> = Object.freeze({
  "reel-video-1": 1,
  "reel-video-2-lite": 0.5,
  "reel-video-3-long": 1.5,
});

/** The catalog entry of `id`, or undefined. */
export function findVideoModel(id: string): VideoModelLimits | undefined {
  return videoModels.find((model) => model.id === id);
}
