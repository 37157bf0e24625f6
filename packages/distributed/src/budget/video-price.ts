import { estimateVideoCredits, type VideoModelCatalog } from "@reelsmith/core";

/**
 * The credits a video request is expected to cost by its model's price in the run's
 * catalog (per clip, per second, per megapixel-second), as the local executor reserves it;
 * undefined when the model is not in the catalog, has no price, or the request does not say
 * what the price needs (its length, or its size for a price by resolution).
 * @example catalogPrice({ model: "veo-3", seconds: 8 }, [{ id: "veo-3", price: { perSecond: 3 } }]) // 24
 */
export function catalogPrice(
  request: Record<string, unknown>,
  videoModels: VideoModelCatalog | undefined,
): number | undefined {
  const spec = videoModels?.find((model) => model.id === request.model);
  const seconds = Number(request.seconds);
  const size = typeof request.size === "string" ? request.size : undefined;
  return spec && Number.isFinite(seconds) ? estimateVideoCredits(spec, seconds, size) : undefined;
}

/** What a learnt price is kept under: the service, the model, the size and the length. */
export interface PriceKind {
  service: string;
  model: string;
  /** The requested size, or "" when the model's default was left to it. */
  size: string;
  /** The requested length in seconds, or "" when the model's default was left to it. */
  seconds: string;
}

/**
 * The kind of job a request makes, for prices learnt from completed jobs: requests of one
 * kind cost the same.
 * @example priceKind("3f2a…", { model: "m", size: "1280x720", seconds: "4" }) // { service: "3f2a…", model: "m", size: "1280x720", seconds: "4" }
 */
export function priceKind(service: string, request: Record<string, unknown>): PriceKind {
  const seconds = Number(request.seconds);
  return {
    service,
    model: String(request.model ?? ""),
    size: typeof request.size === "string" ? request.size : "",
    seconds: request.seconds === undefined || !Number.isFinite(seconds) ? "" : String(seconds),
  };
}
