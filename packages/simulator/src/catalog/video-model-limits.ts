// Local copy of @reelsmith/core's `VideoModelLimits` / `VideoModelCatalog` (same shape): core does
// not export them from its index yet. Structural typing makes the two interchangeable.

/** Limits of one video model (spec 2.3), in the shape of `@reelsmith/core`'s catalog. */
export interface VideoModelLimits {
  id: string;
  maxSeconds: number;
  /** Supported sizes as `"WxH"`. */
  sizes: string[];
}

/** A list of video model limits. */
export type VideoModelCatalog = readonly VideoModelLimits[];
