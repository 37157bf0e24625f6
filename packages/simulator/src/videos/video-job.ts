import type { VideoRequest } from "./validate-video-request.js";

/** Where a job stands on its timeline. */
export type JobStatus = "pending" | "processing" | "completed" | "failed";

/** One job as the simulator keeps it. */
export interface VideoJobRecord {
  id: string;
  request: VideoRequest;
  status: JobStatus;
  createdMs: number;
  processingAtMs: number;
  doneAtMs: number;
  completedAt?: number;
  credits?: number;
  error?: { code: string; message: string };
  failure?: { code: string; message: string };
  render?: Promise<string>;
}
