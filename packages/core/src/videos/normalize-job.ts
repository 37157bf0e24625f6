import { APIError } from "../errors/api-error.js";
import type { VideoJob, VideoJobStatus } from "./types.js";

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
 * Maps the statuses servers use to the four of spec 3 (`queued` → `pending`,
 * `in_progress`/`running` → `processing`, `succeeded` → `completed`,
 * `error`/`cancelled` → `failed`). An unknown status is treated as `processing` (still
 * running) and kept in `raw_status`. Other fields are kept as they are.
 *
 * @example
 * ```ts
 * normalizeVideoJob({ id: "v1", status: "in_progress" }).status; // "processing"
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
  return job;
}
