import type { VideoModelCatalog, VideoModelSpec } from "@reelsmith/core/catalog";

/**
 * What a clip costs on the simulator: 10 credits per million pixels per second, rounded up
 * (a 4 s 1280x720 clip costs 37, a 2 s 854x480 one 9).
 */
const PRICE = Object.freeze({ perMegapixelSecond: 10 });

/**
 * The three video models the simulator serves when it is given no profile (spec 2.3).
 * They are the simulator's own: no product default depends on them.
 *
 * @example
 * const long = videoModels.find((model) => model.id === "reel-video-3-long"); // seconds { min: 1, max: 20 }
 */
export const videoModels: VideoModelCatalog = Object.freeze([
  Object.freeze({
    id: "reel-video-1",
    seconds: Object.freeze({ min: 1, max: 10 }),
    price: PRICE,
    sizes: Object.freeze(["1280x720", "720x1280", "1920x1080", "1080x1920"]),
  }),
  Object.freeze({
    id: "reel-video-2-lite",
    seconds: Object.freeze({ min: 1, max: 8 }),
    price: PRICE,
    sizes: Object.freeze([
      "720x480",
      "480x720",
      "854x480",
      "480x854",
      "960x540",
      "540x960",
      "1280x720",
      "720x1280",
    ]),
  }),
  Object.freeze({
    id: "reel-video-3-long",
    seconds: Object.freeze({ min: 1, max: 20 }),
    price: PRICE,
    sizes: Object.freeze([
      "854x480",
      "480x854",
      "640x480",
      "960x540",
      "540x960",
      "1280x720",
      "720x1280",
      "1920x1080",
      "1080x1920",
    ]),
  }),
]) as VideoModelCatalog;

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
export function findVideoModel(id: string): VideoModelSpec | undefined {
  return videoModels.find((model) => model.id === id);
}
