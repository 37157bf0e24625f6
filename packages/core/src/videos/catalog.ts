import type { VideoModelCatalog } from "./types.js";

/**
 * The three video models of the reference service (spec 2.3) and their limits.
 *
 * @example
 * ```ts
 * const limits = referenceVideoModels.find((model) => model.id === "reel-video-1");
 * console.log(limits?.maxSeconds); // 10
 * ```
 */
export const referenceVideoModels: VideoModelCatalog = Object.freeze([
  Object.freeze({
    id: "reel-video-1",
    maxSeconds: 10,
    sizes: ["1280x720", "720x1280", "1920x1080", "1080x1920"],
  }),
  Object.freeze({
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
  }),
  Object.freeze({
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
  }),
]) as VideoModelCatalog;
