import { chargeInUnit, exactAmount } from "../prices/charge-in-unit.js";
import type { VideoModelSpec } from "./types.js";

/**
 * Credits a clip of `seconds` (at `size`) costs by the model's price: `perClip + perSecond ×
 * seconds + ⌈perMegapixelSecond × megapixels × seconds⌉` (any part may be absent; the one by
 * resolution needs the size). Undefined when the model has no known price, or its price is by
 * resolution and the size is unknown. With `unit` naming the price's own unit (usd, eur, …)
 * nothing is rounded up: the amount is exact (to 1e-9).
 *
 * @example
 * ```ts
 * estimateVideoCredits({ id: "veo-3-fast", price: { perClip: 10, perSecond: 2 } }, 8); // 26
 * estimateVideoCredits({ id: "m", price: { perMegapixelSecond: 10 } }, 2, "854x480"); // 9
 * estimateVideoCredits({ id: "m", price: { perMegapixelSecond: 0.01 } }, 2, "854x480", "usd"); // 0.0081984
 * ```
 */
export function estimateVideoCredits(
  spec: VideoModelSpec,
  seconds: number,
  size?: string,
  unit?: string,
): number | undefined {
  const price = spec.price;
  if (
    !price ||
    (price.perClip === undefined &&
      price.perSecond === undefined &&
      price.perMegapixelSecond === undefined)
  ) {
    return undefined;
  }
  let byResolution = 0;
  if (price.perMegapixelSecond !== undefined) {
    const match = /^(\d+)x(\d+)$/.exec(size ?? "");
    if (!match) return undefined;
    const megapixels = (Number(match[1]) * Number(match[2])) / 1_000_000;
    // Rounded to 1e-9 first, so 9.0000000001 (floating point) never becomes 10.
    byResolution = chargeInUnit(price.perMegapixelSecond * megapixels * seconds, unit);
  }
  return exactAmount((price.perClip ?? 0) + (price.perSecond ?? 0) * seconds + byResolution);
}
