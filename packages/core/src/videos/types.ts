/** Normalised status of a video job (spec 3). */
export type VideoJobStatus = "pending" | "processing" | "completed" | "failed";

/** A video job (spec 2.1). Unknown fields sent by the service are kept. */
export interface VideoJob {
  id: string;
  object: "video";
  status: VideoJobStatus;
  created: number;
  model: string;
  prompt: string;
  completed_at?: number;
  video_url?: string;
  duration?: number;
  usage?: { total_credits: number; [key: string]: unknown };
  error?: unknown;
  [key: string]: unknown;
}

/** Body of `POST /v1/videos` (spec 2.2). `seconds` may be given as a number; it is sent as a string. */
export interface VideoCreateParams {
  model: string;
  prompt: string;
  seconds?: string | number;
  size?: string;
  image_url?: string;
  [key: string]: unknown;
}

/** Limits of one video model (spec 2.3). */
export interface VideoModelLimits {
  id: string;
  maxSeconds: number;
  /** Supported sizes as `"WxH"`. */
  sizes: string[];
}

/** A list of video model limits. */
export type VideoModelCatalog = readonly VideoModelLimits[];
