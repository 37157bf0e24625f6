// The catalog shape is @reelsmith/core's, so a simulator catalog can be handed to core and runner.
export type { VideoModelCatalog, VideoModelLimits, VideoModelSpec } from "@reelsmith/core/catalog";
