import { APIError } from "../errors/api-error.js";
import type { VideoJob, VideoJobError, VideoJobStatus } from "./types.js";

const statusAliases: Readonly<Record<string, VideoJobStatus>> = {
  pending: "pending",
  queued: "pending",
  processing: "processing",
  in_progress: "processing",
  running: "processing",
  completed: "completed",
  succeeded: "completed",
  failed: "failed",
  error: "failed",
  cancelled: "failed",
  canceled: "failed",
};

/**
 * Reads a video job of either dialect into core's {@link VideoJob}: statuses mapped to the
 * four of spec 3 (`queued` → `pending`, `in_progress`/`running` → `processing`, `succeeded` →
 * `completed`, `error`/`cancelled` → `failed`; an unknown one is `processing`, kept in
 * `raw_status`), `created` filled from openai's `created_at`, `null`s of fields not yet set
 * dropped (`completed_at: null`), and `error` as `{ code?, message }` (a string error becomes
 * its message). Other fields are kept as they are.
 *
 * @example
 * ```ts
 * normalizeVideoJob({ id: "v1", status: "in_progress", created_at: 1700000000 });
 * // { id: "v1", status: "processing", created: 1700000000, object: "video", … }
 * ```
 */
export function normalizeVideoJob(body: unknown): VideoJob {
  if (!body || typeof body !== "object" || typeof (body as { id?: unknown }).id !== "string") {
    throw new APIError("The service returned a video job without an `id`.", {
      code: "invalid_response",
    });
  }
  const job = { ...(body as Record<string, unknown>) } as VideoJob;
  const raw = typeof job.status === "string" ? job.status.toLowerCase() : "";
  const status = statusAliases[raw];
  if (status === undefined) job.raw_status = job.status;
  job.status = status ?? "processing";
  if (job.object === undefined) job.object = "video";
  if (typeof job.created !== "number" && typeof job.created_at === "number") {
    job.created = job.created_at;
  }
  for (const field of ["completed_at", "video_url", "duration", "usage", "progress"] as const) {
    if (job[field] === null) delete job[field];
  }
  const error = normalizeJobError(job.error);
  if (error) job.error = error;
  else delete job.error;
  return job;
}

/**
 * A job's `error` field as `{ code?, message }`: an object's `code`/`message` (or `type`), a
 * string as the message; undefined when there is none.
 *
 * @example
 * ```ts
 * normalizeJobError({ code: "moderation_blocked", message: "Blocked" }); // same
 * normalizeJobError("out of capacity"); // { message: "out of capacity" }
 * ```
 */
export function normalizeJobError(error: unknown): VideoJobError | undefined {
  if (error === undefined || error === null) return undefined;
  if (typeof error === "string") return { message: error };
  if (typeof error === "object") {
    const { code, message, type } = error as { code?: unknown; message?: unknown; type?: unknown };
    const normalized: VideoJobError = {
      message: typeof message === "string" && message !== "" ? message : "no reason given",
    };
    const machine = typeof code === "string" ? code : typeof type === "string" ? type : undefined;
    if (machine !== undefined) normalized.code = machine;
    return normalized;
  }
  return { message: String(error) };
}
