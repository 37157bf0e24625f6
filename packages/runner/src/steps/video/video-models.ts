import { estimateVideoCredits, type VideoModelCatalog } from "../../pipeline/core-shim.js";
import type { ModelCatalogs } from "../step-kind.js";

/** The catalog section video models are read from (the provider profile's own word). */
export const VIDEO_MODELS = "video_models";

/**
 * The video models of the catalogs (as core reads a profile's `video_models:`, with the ones
 * the service lists with their limits), or undefined when none are known (nothing is checked).
 * @example videoModelsOf({ video_models: [{ id: "reel-video-1", seconds: [4, 8] }] })?.[0]?.id // "reel-video-1"
 */
export function videoModelsOf(catalogs: ModelCatalogs | undefined): VideoModelCatalog | undefined {
  const listed = catalogs?.[VIDEO_MODELS];
  return Array.isArray(listed) ? (listed as VideoModelCatalog) : undefined;
}

/**
 * The credits a video request is expected to cost by its model's price in the catalog (per
 * clip, per second, per megapixel-second): what the budget reserves before it is submitted.
 * Undefined when the model is not in the catalog, has no price, or the request does not say
 * what the price needs (its length, or its size for a price by resolution).
 * @example videoRequestPrice({ model: "veo-3", seconds: "8" }, [{ id: "veo-3", price: { perSecond: 3 } }]) // 24
 */
export function videoRequestPrice(
  request: { model?: unknown; seconds?: unknown; size?: unknown },
  videoModels: VideoModelCatalog | undefined,
): number | undefined {
  const spec = videoModels?.find((model) => model.id === request.model);
  const seconds = Number(request.seconds);
  const size = typeof request.size === "string" ? request.size : undefined;
  return spec && Number.isFinite(seconds) ? estimateVideoCredits(spec, seconds, size) : undefined;
}
