/** The answer to `POST {queue}/{endpoint}`: the request as queued. */
export interface FalQueuedRequest {
  request_id: string;
  status?: "IN_QUEUE";
  response_url?: string;
  status_url?: string;
  cancel_url?: string;
  queue_position?: number;
}

/**
 * `GET {queue}/{owner}/{alias}/requests/{id}/status`: `IN_QUEUE` (with its position),
 * `IN_PROGRESS`, `COMPLETED` (with `error` and `error_type` when the request failed).
 */
export interface FalQueueStatus {
  status: "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | string;
  request_id?: string;
  queue_position?: number;
  response_url?: string;
  logs?: unknown[] | null;
  error?: string | null;
  error_type?: string | null;
  metrics?: { inference_time?: number | null };
}

/** A file in a fal result (`video`, `audio_file`, `images[]`): a URL on fal's CDN. */
export interface FalFile {
  url: string;
  content_type?: string;
  file_name?: string;
  file_size?: number;
}

/** `GET {queue}/{owner}/{alias}/requests/{id}`: a video endpoint's output. */
export interface FalVideoResult {
  video?: FalFile;
  seed?: number;
  [key: string]: unknown;
}

/** `GET {queue}/{owner}/{alias}/requests/{id}`: an image endpoint's output (FLUX and the like). */
export interface FalImageResult {
  images?: (FalFile & { width?: number; height?: number })[];
  seed?: number;
  prompt?: string;
  has_nsfw_concepts?: boolean[];
  [key: string]: unknown;
}
