import { v1VideoRoutes } from "../../videos/v1-video-routes.js";
import type { SimulatorDialect } from "../simulator-dialect.js";

/** The service interface's `/v1/videos`: JSON bodies, `created`, `usage.total_credits`. */
export const referenceDialect: SimulatorDialect = {
  name: "reference",
  authScheme: "Bearer",
  videoRoutes: v1VideoRoutes,
  imageField: "image_url",
  jobJson(job, { progressOf, baseUrl }) {
    const { request } = job;
    const json: Record<string, unknown> = {
      id: job.id,
      object: "video",
      status: job.status,
      created: Math.floor(job.createdMs / 1000),
      model: request.model,
      prompt: request.prompt,
      seconds: String(request.seconds),
      size: request.size,
      progress: progressOf(job),
    };
    if (job.status === "completed") {
      json.completed_at = job.completedAt;
      json.video_url = `${baseUrl()}/v1/videos/${job.id}/content`;
      json.duration = request.seconds;
      json.usage = { total_credits: job.credits };
    }
    if (job.status === "failed") json.error = job.error;
    return json;
  },
};
