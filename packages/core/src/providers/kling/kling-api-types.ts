/** Every answer of Kling's API: `code` 0 on success, else one of its error codes. */
export interface KlingEnvelope<T> {
  code: number;
  message: string;
  request_id?: string;
  data?: T;
}

/** Kling's task states. */
export type KlingTaskStatus = "submitted" | "processing" | "succeed" | "failed";

/** A video in a finished task's result (the URL expires after 30 days). */
export interface KlingVideo {
  id: string;
  url: string;
  duration: string;
}

/** `data` of a submission's answer and of `GET /v1/videos/{action}/{id}`. */
export interface KlingTask {
  task_id: string;
  task_status: KlingTaskStatus | string;
  task_status_msg?: string;
  task_info?: { external_task_id?: string };
  task_result?: { videos?: KlingVideo[] };
  created_at?: number;
  updated_at?: number;
}
