/**
 * @reelsmith/core/profile: provider profiles (a service's address, dialect, video models with
 * their limits, parameters and prices, chat models), their JSON Schema and validator, and
 * their conversion to core's catalog and client options. Loads no HTTP client (no undici):
 * for code that only validates, such as a pipeline checker.
 *
 * @example
 * ```ts
 * import { validateProfile, videoCatalogFromProfile } from "@reelsmith/core/profile";
 * const problems = validateProfile(YAML.parse(text)); // [{ pointer, message, code }]
 * ```
 */
export { InvalidProfileError } from "./errors/invalid-profile-error.js";
export * from "./profile/index.js";
export { estimateVideoCredits } from "./videos/estimate-video-credits.js";
export type {
  ParamSpec,
  ParamType,
  SecondsSpec,
  SizesSpec,
  VideoModelCatalog,
  VideoModelSpec,
  VideoPrice,
} from "./videos/types.js";
export type { VideoDialect } from "./videos/video-dialect.js";
