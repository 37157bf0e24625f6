import type { VideoModelSpec } from "./types.js";

/**
 * Credits a clip of `seconds` costs by the model's price: `perClip + perSecond × seconds`
 * (either part may be absent). Undefined when the model has no known price.
 *
 * @example
 * ```ts
 * estimateVideoCredits({ id: "veo-3-fast", price: { perClip: 10, perSecond: 2 } }, 8); // 26
 * ```
 */
export function estimateVideoCredits(spec: VideoModelSpec, seconds: number): number | undefined {
  const price = spec.price;
  if (!price || (price.perClip === undefined && price.perSecond === undefined)) return undefined;
  return (price.perClip ?? 0) + (price.perSecond ?? 0) * seconds;
}
