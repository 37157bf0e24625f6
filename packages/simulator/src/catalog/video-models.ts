import type { VideoModelCatalog, VideoModelLimits } from "./video-model-limits.js";

/**
 * The three video models the simulator serves (spec 2.3), in `@reelsmith/core`'s catalog shape.
 *
 * @example
 * const long = videoModels.find((model) => model.id === "reel-video-3-long"); // maxSeconds 20
 */
export const videoModels: VideoModelCatalog = Object.freeze([
  {
    id: "reel-video-1",
    maxSeconds: 10,
    sizes: ["1280x720", "720x1280", "1920x1080", "1080x1920"],
  },
  {
    id: "reel-video-2-lite",
    maxSeconds: 8,
    sizes: [
      "720x480",
      "480x720",
      "854x480",
      "480x854",
      "960x540",
      "540x960",
      "1280x720",
      "720x1280",
    ],
  },
  {
    id: "reel-video-3-long",
    maxSeconds: 20,
    sizes: [
      "854x480",
      "480x854",
      "640x480",
      "960x540",
      "540x960",
      "1280x720",
      "720x1280",
      "1920x1080",
      "1080x1920",
    ],
  },
] satisfies VideoModelLimits[]);

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
