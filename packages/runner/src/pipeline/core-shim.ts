/**
 * Local stand-ins for `@reelsmith/core` types and the reference video catalog, used until
 * core exports them (contract: `VideoModelCatalog`, `referenceVideoModels`, `ReelsmithClient`).
 * When core lands, this file becomes plain re-exports from "@reelsmith/core".
 *
 * @example
 * ```ts
 * const limits = referenceVideoModels.find((m) => m.id === "reel-video-1");
 * ```
 */

/** Limits of one video model (spec 2.3). */
export interface VideoModelLimits {
  id: string;
  maxSeconds: number;
  /** Allowed sizes, "WxH". */
  sizes: string[];
}

/** A list of video models with their limits. */
export type VideoModelCatalog = readonly VideoModelLimits[];

/** The three reference video models of the service (spec 2.3), same content as core's. */
export const referenceVideoModels: VideoModelCatalog = [
  { id: "reel-video-1", maxSeconds: 10, sizes: ["1280x720", "720x1280", "1920x1080", "1080x1920"] },
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
];

/** Stand-in for core's client type until core exports `ReelsmithClient`. */
// biome-ignore lint/suspicious/noExplicitAny: placeholder for the real client type from core
export type ReelsmithClient = any;
