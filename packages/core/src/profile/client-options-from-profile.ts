import type { ClientOptions } from "../client/options.js";
import {
  imageModelsFromProfile,
  speechModelsFromProfile,
  transcriptionModelsFromProfile,
} from "./media-catalog-from-profile.js";
import { parseDuration } from "./parse-duration.js";
import type { ProviderProfile } from "./profile-types.js";
import { videoCatalogFromProfile } from "./video-catalog-from-profile.js";

/** What a profile sets of `createClient()`'s options (never the key). */
export type ProfileClientOptions = Pick<
  ClientOptions,
  | "baseURL"
  | "dialect"
  | "honoursIdempotencyKeys"
  | "listsJobs"
  | "pollIntervalMs"
  | "videoModels"
  | "imageModels"
  | "speechModels"
  | "transcriptionModels"
>;

/**
 * The client options a (valid) profile sets: base URL, dialect, `honoursIdempotencyKeys`,
 * `listsJobs`, poll interval, the video catalog, and the image, speech and transcription
 * models it declares. Not the key: resolve the names in
 * `service.api_key_env` against your environment and pass `apiKey` yourself.
 *
 * @example
 * ```ts
 * const names = profile.service?.api_key_env ?? [];
 * const apiKey = names.map((name) => process.env[name]).find(Boolean);
 * const client = createClient({ ...clientOptionsFromProfile(profile), apiKey });
 * ```
 */
export function clientOptionsFromProfile(profile: ProviderProfile): ProfileClientOptions {
  const service = profile.service ?? {};
  const options: ProfileClientOptions = {
    dialect: service.dialect ?? "reference",
    honoursIdempotencyKeys: service.idempotency_keys === true,
    listsJobs: service.lists_jobs === true,
    videoModels: videoCatalogFromProfile(profile),
  };
  if (profile.image_models) options.imageModels = imageModelsFromProfile(profile);
  if (profile.speech_models) options.speechModels = speechModelsFromProfile(profile);
  if (profile.transcription_models)
    options.transcriptionModels = transcriptionModelsFromProfile(profile);
  if (service.base_url !== undefined) options.baseURL = service.base_url;
  if (service.poll_interval !== undefined)
    options.pollIntervalMs = parseDuration(service.poll_interval);
  return options;
}
