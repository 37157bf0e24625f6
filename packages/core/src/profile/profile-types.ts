import type { ParamType } from "../videos/types.js";
import type { VideoDialect } from "../videos/video-dialect.js";

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
  /** The provider (a name under `providers:`) that serves it; default the profile's `service`. */
  provider?: string;
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
  /** The provider (a name under `providers:`) that serves it; default the profile's `service`. */
  provider?: string;
  images?: boolean;
  json?: boolean;
  tools?: boolean;
}

/** One image model of a profile. A missing or null field is unknown. */
export interface ProfileImageModel {
  description?: string;
  /** The provider (a name under `providers:`) that serves it; default the profile's `service`. */
  provider?: string;
  sizes?: string[] | null;
  max_references?: number | null;
  max_images?: number | null;
  price?: { per_image?: number } | null;
}

/** One speech model of a profile. A missing or null field is unknown. */
export interface ProfileSpeechModel {
  description?: string;
  /** The provider (a name under `providers:`) that serves it; default the profile's `service`. */
  provider?: string;
  voices?: string[] | null;
  formats?: ("mp3" | "opus" | "aac" | "flac" | "wav" | "pcm")[] | null;
  price?: { per_1000_characters?: number } | null;
}

/** One transcription model of a profile. A missing or null field is unknown. */
export interface ProfileTranscriptionModel {
  description?: string;
  /** The provider (a name under `providers:`) that serves it; default the profile's `service`. */
  provider?: string;
  word_timestamps?: boolean | null;
  price?: { per_minute?: number } | null;
}

/** The units a profile's prices are stated in (`unit:` of a provider; default `credits`). */
export const priceUnits = ["credits", "usd", "eur", "characters"] as const;

/** A unit prices are stated in. */
export type PriceUnit = (typeof priceUnits)[number];

/**
 * One provider account of a profile's `providers:` map: how it speaks, where it is, the
 * variables of its key, its account limits and the unit of its models' prices.
 */
export interface ProfileProvider {
  dialect: VideoDialect;
  base_url?: string;
  api_key_env?: string[];
  idempotency_keys?: boolean;
  lists_jobs?: boolean;
  poll_interval?: string | number;
  /** Video jobs the account runs at once. */
  max_concurrent_jobs?: number;
  /** The unit of its models' prices (default credits). */
  unit?: PriceUnit;
  /** Credits one `unit` is worth, for estimates and budgets in credits. */
  credits_per_unit?: number;
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
  /** More provider accounts, by name; a model names one with `provider:`. */
  providers?: Record<string, ProfileProvider>;
  video_models?: Record<string, ProfileVideoModel | null>;
  chat_models?: Record<string, ProfileChatModel | null>;
  image_models?: Record<string, ProfileImageModel | null>;
  speech_models?: Record<string, ProfileSpeechModel | null>;
  transcription_models?: Record<string, ProfileTranscriptionModel | null>;
}
