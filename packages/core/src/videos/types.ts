/** Normalised status of a video job (spec 3). */
export type VideoJobStatus = "pending" | "processing" | "completed" | "failed";

/** Why a job failed, as normalised from the service's `error` field. */
export interface VideoJobError {
  /** The service's machine-readable code, when it gave one. */
  code?: string;
  message: string;
}

/**
 * A video job (spec 2.1), normalised from either dialect: `created` is filled from openai's
 * `created_at`, statuses are mapped to the four of spec 3, and `error` is `{ code?, message }`.
 * Unknown fields sent by the service are kept.
 */
export interface VideoJob {
  id: string;
  object: "video";
  status: VideoJobStatus;
  /** When the job was made (seconds), when the provider says. */
  created?: number;
  model: string;
  prompt: string;
  completed_at?: number;
  video_url?: string;
  duration?: number;
  /** 0–100 while the service reports it. */
  progress?: number;
  usage?: { total_credits: number; [key: string]: unknown };
  error?: VideoJobError;
  [key: string]: unknown;
}

/**
 * An image handed to the service: an http(s) URL, a `data:` URI, raw bytes (the type is
 * sniffed), or bytes with their type and file name.
 */
export type ImageInput =
  | string
  | Uint8Array
  | { data: Uint8Array; mimeType?: string; filename?: string };

/** A provider parameter value: a scalar, or an image for `image` parameters. */
export type VideoParamValue = string | number | boolean | ImageInput;

/**
 * Parameters of `videos.create()`. Core's own fields are top-level; the model's provider
 * parameters (declared in a profile) go in `params`, so they never collide with them.
 */
export interface VideoCreateParams {
  model: string;
  prompt: string;
  /** Whole seconds; sent as a string of digits. */
  seconds?: string | number;
  /** `"<width>x<height>"`. */
  size?: string;
  /**
   * Reference image for image-to-video: sent as `image_url` (a URL or data URI) in the
   * reference dialect and as the `input_reference` file part in the openai dialect.
   */
  image?: ImageInput;
  /** The reference dialect's own field; prefer `image`. */
  image_url?: string;
  /** Provider parameters the model accepts (`seed`, `negative_prompt`, …). */
  params?: Record<string, VideoParamValue>;
}

/** Allowed lengths: an inclusive range of whole seconds, or a list of allowed values. */
export type SecondsSpec = { min: number; max: number } | readonly number[];

/** Allowed sizes: a list of `"WxH"`, or inclusive ranges of width and height in pixels. */
export type SizesSpec =
  | readonly string[]
  | { width: { min: number; max: number }; height: { min: number; max: number } };

/** The type of a provider parameter; `image` values are uploaded like the reference image. */
export type ParamType = "integer" | "number" | "string" | "boolean" | "image";

/** One provider parameter a model accepts (normalised from a profile's short or long form). */
export interface ParamSpec {
  type: ParamType;
  /** The allowed values, when restricted to a set. */
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  description?: string;
}

/** A model's price in credits: per clip, per second of video, or both. */
export interface VideoPrice {
  perClip?: number;
  perSecond?: number;
  /**
   * Credits per million pixels per second (a price by resolution); the part it gives is
   * rounded up to a whole credit, as such services bill.
   */
  perMegapixelSecond?: number;
}

/**
 * What core knows of one video model. A field left undefined is unknown: it is not checked
 * locally (the service decides).
 *
 * @example
 * ```ts
 * const spec: VideoModelSpec = {
 *   id: "veo-3-fast",
 *   seconds: { min: 1, max: 8 },
 *   sizes: ["1280x720", "720x1280"],
 *   image: true,
 *   params: { seed: { type: "integer" } },
 *   price: { perClip: 10, perSecond: 2 },
 * };
 * ```
 */
export interface VideoModelSpec {
  id: string;
  seconds?: SecondsSpec;
  sizes?: SizesSpec;
  /** Accepts a reference image (image-to-video). */
  image?: boolean;
  /** The provider parameters it accepts; undefined: not declared, so not checked. */
  params?: Readonly<Record<string, ParamSpec>>;
  price?: VideoPrice;
}

/** A list of video model specs (what `createClient({ videoModels })` checks requests against). */
export type VideoModelCatalog = readonly VideoModelSpec[];

/** @deprecated The old name of {@link VideoModelSpec}. */
export type VideoModelLimits = VideoModelSpec;
