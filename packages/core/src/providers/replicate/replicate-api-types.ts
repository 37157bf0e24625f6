/** A prediction's state on Replicate. */
export type ReplicateStatus = "starting" | "processing" | "succeeded" | "failed" | "canceled";

/**
 * A prediction as Replicate answers it (`POST …/predictions`, `GET /v1/predictions/{id}`,
 * the list's `results`). `output` is the model's: a URL, or a list of URLs, that expires an
 * hour after the prediction ends.
 */
export interface ReplicatePrediction {
  id: string;
  model?: string;
  version?: string;
  input?: Record<string, unknown>;
  status: ReplicateStatus | string;
  output?: unknown;
  error?: unknown;
  logs?: string | null;
  metrics?: { predict_time?: number; [key: string]: unknown } | null;
  created_at?: string;
  started_at?: string | null;
  completed_at?: string | null;
  urls?: { get?: string; cancel?: string; stream?: string; web?: string };
  [key: string]: unknown;
}

/** One page of `GET /v1/predictions` (newest first; `next` is the URL of the older page). */
export interface ReplicatePredictionPage {
  next?: string | null;
  previous?: string | null;
  results?: ReplicatePrediction[];
}
