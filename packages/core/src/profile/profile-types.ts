import type { ParamType, VideoDialect } from "../videos/types.js";

/** A provider parameter as written in a profile: a type, a list of allowed values, or the long form. */
export type ProfileParam =
  | ParamType
  | (string | number)[]
  | {
      type: ParamType;
      enum?: (string | number)[];
      minimum?: number;
      maximum?: number;
      description?: string;
    };

/** One video model of a profile (snake_case, as written). A missing or null field is unknown. */
export interface ProfileVideoModel {
  description?: string;
  seconds?: { min: number; max: number } | number[] | null;
  sizes?:
    | string[]
    | { width: { min: number; max: number }; height: { min: number; max: number } }
    | null;
  image?: boolean | null;
  params?: Record<string, ProfileParam> | null;
  price?: { per_clip?: number; per_second?: number; per_megapixel_second?: number } | null;
}

/** One chat model of a profile. */
export interface ProfileChatModel {
  description?: string;
  images?: boolean;
  json?: boolean;
  tools?: boolean;
}

/** One image model of a profile. A missing or null field is unknown. */
export interface ProfileImageModel {
  description?: string;
  sizes?: string[] | null;
  max_references?: number | null;
  max_images?: number | null;
  price?: { per_image?: number } | null;
}

/** One speech model of a profile. A missing or null field is unknown. */
export interface ProfileSpeechModel {
  description?: string;
  voices?: string[] | null;
  formats?: ("mp3" | "opus" | "aac" | "flac" | "wav" | "pcm")[] | null;
  price?: { per_1000_characters?: number } | null;
}

/** One transcription model of a profile. A missing or null field is unknown. */
export interface ProfileTranscriptionModel {
  description?: string;
  word_timestamps?: boolean | null;
  price?: { per_minute?: number } | null;
}

/**
 * A provider profile as parsed from YAML (see `schema/profile.schema.json`). It never holds a
 * key: `service.api_key_env` names the environment variables that do.
 *
 * @example
 * ```ts
 * const profile: ProviderProfile = {
 *   service: { base_url: "https://api.example.com", api_key_env: ["EXAMPLE_API_KEY"], dialect: "openai" },
 *   video_models: { "veo-3-fast": { seconds: { min: 1, max: 8 }, sizes: ["1280x720"] } },
 * };
 * ```
 */
export interface ProviderProfile {
  $schema?: string;
  service?: {
    base_url?: string;
    api_key_env?: string[];
    dialect?: VideoDialect;
    idempotency_keys?: boolean;
    lists_jobs?: boolean;
    poll_interval?: string | number;
  };
  video_models?: Record<string, ProfileVideoModel | null>;
  chat_models?: Record<string, ProfileChatModel | null>;
  image_models?: Record<string, ProfileImageModel | null>;
  speech_models?: Record<string, ProfileSpeechModel | null>;
  transcription_models?: Record<string, ProfileTranscriptionModel | null>;
}
