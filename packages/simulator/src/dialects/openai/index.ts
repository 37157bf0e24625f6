import { v1VideoRoutes } from "../../videos/v1-video-routes.js";
import type { SimulatorDialect } from "../simulator-dialect.js";

/** The statuses of OpenAI's video API. */
const openaiStatus: Readonly<Record<string, string>> = {
  pending: "queued",
  processing: "in_progress",
  completed: "completed",
  failed: "failed",
};

/** OpenAI's `/v1/videos`: multipart bodies, every field present and null until known, no credits. */
export const openaiDialect: SimulatorDialect = {
  name: "openai",
  authScheme: "Bearer",
  videoRoutes: v1VideoRoutes,
  imageField: "input_reference",
  jobJson(job, { progressOf }) {
    const { request } = job;
    const done = job.status === "completed" || job.status === "failed";
    return {
      id: job.id,
      object: "video",
      created_at: Math.floor(job.createdMs / 1000),
      status: openaiStatus[job.status],
      model: request.model,
      prompt: request.prompt,
      progress: progressOf(job),
      seconds: String(request.seconds),
      size: request.size,
      completed_at: done ? (job.completedAt ?? null) : null,
      expires_at: null,
      error: job.status === "failed" ? (job.error ?? null) : null,
      remixed_from_video_id: null,
    };
  },
};
