import type { VideoModelCatalog } from "./types.js";

/**
 * The three video models of the simulator, kept here only until the packages that still
 * import them from core read `videoModels` of `@reelsmith/simulator` instead. Nothing in core
 * uses it: core has no default catalog.
 *
 * @deprecated Use `videoModels` from `@reelsmith/simulator`, or a catalog made from a provider
 * profile (`videoCatalogFromProfile` in `@reelsmith/core/profile`).
 * @example
 * ```ts
 * const spec = referenceVideoModels.find((model) => model.id === "reel-video-1"); // seconds { min: 1, max: 10 }
 * ```
 */
export const referenceVideoModels: VideoModelCatalog = Object.freeze([
  Object.freeze({
    id: "reel-video-1",
    seconds: Object.freeze({ min: 1, max: 10 }),
    sizes: ["1280x720", "720x1280", "1920x1080", "1080x1920"],
  }),
  Object.freeze({
    id: "reel-video-2-lite",
    seconds: Object.freeze({ min: 1, max: 8 }),
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
    seconds: Object.freeze({ min: 1, max: 20 }),
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
