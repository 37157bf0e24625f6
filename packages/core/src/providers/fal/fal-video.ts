import { APIError } from "../../errors/api-error.js";
import { RequestUnsettledError } from "../../errors/request-unsettled-error.js";
import type { RequestOptions } from "../../http/request-options.js";
import type { VideoJob, VideoJobStatus } from "../../videos/types.js";
import { throwRequestProblems } from "../request-checks.js";
import type { ProviderContext, VideoProvider } from "../video-provider.js";
import type { FalQueuedRequest, FalQueueStatus, FalVideoResult } from "./fal-api-types.js";
import { falApp, falJobId, parseFalJobId } from "./fal-endpoint.js";
import { falVideoInput, falVideoProblems } from "./fal-video-input.js";

/** fal's queue states as core's job states (a `COMPLETED` request with an `error` failed). */
const falStates: Readonly<Record<string, VideoJobStatus>> = {
  IN_QUEUE: "pending",
  IN_PROGRESS: "processing",
  COMPLETED: "completed",
  FAILED: "failed",
  CANCELED: "failed",
  CANCELLED: "failed",
};

/** Statuses of the result request that mean the request itself failed (not the transport). */
const failedResultStatuses = new Set([400, 422, 500]);

async function fetchResult(
  { transport }: ProviderContext,
  id: string,
  request: RequestOptions,
): Promise<FalVideoResult> {
  const { app, requestId } = parseFalJobId(id);
  const response = await transport.json<FalVideoResult>({
    method: "GET",
    path: `/${app}/requests/${encodeURIComponent(requestId)}`,
    options: request,
  });
  return response.data ?? {};
}

function job(id: string, status: VideoJobStatus, extra: Partial<VideoJob> = {}): VideoJob {
  const { endpoint } = parseFalJobId(id);
  return { id, object: "video", status, model: endpoint, prompt: "", ...extra } as VideoJob;
}

/**
 * fal's queue (`https://queue.fal.run`): `POST /{endpoint}` with the model's own input, then
 * `GET /{owner}/{alias}/requests/{id}/status` (`IN_QUEUE`, `IN_PROGRESS`, `COMPLETED`), the
 * output at `GET …/requests/{id}` (the video's URL on fal's CDN), `PUT …/requests/{id}/cancel`,
 * `Authorization: Key <FAL_KEY>`. fal honours no idempotency key, so a submission is sent
 * once (resent only on a 429 or when it cannot have left), and one whose answer was lost
 * ends in `request_unsettled`.
 */
export const falVideoProvider: VideoProvider = {
  name: "fal",
  description: "fal's queue at queue.fal.run: the model is the endpoint id",
  keyEnv: "FAL_KEY",
  defaultBaseURL: "https://queue.fal.run",
  settlement: ["none"],
  idempotencyHeader: undefined,
  authHeaders: (apiKey) => ({ authorization: `Key ${apiKey}` }),
  validate(params) {
    throwRequestProblems(falVideoProblems(params));
  },
  async submit({ transport }, { params, idempotencyKey, spec, request }) {
    falApp(params.model);
    const response = await transport.json<FalQueuedRequest>({
      method: "POST",
      path: `/${params.model}`,
      body: falVideoInput(params, spec),
      options: request,
      submission: { idempotencyKey, request: `POST ${params.model} (fal)` },
    });
    const requestId = response.data?.request_id;
    if (typeof requestId !== "string" || requestId === "") {
      throw new APIError("fal answered the submission without a `request_id`.", {
        status: response.status,
        requestId: response.requestId,
        code: "invalid_response",
      });
    }
    return {
      ...job(falJobId(params.model, requestId), "pending"),
      prompt: params.prompt,
      created: Math.floor(Date.now() / 1000),
      ...(typeof response.data.queue_position === "number"
        ? { queue_position: response.data.queue_position }
        : {}),
    };
  },
  async retrieve(context, id, request) {
    const { app, requestId } = parseFalJobId(id);
    const response = await context.transport.json<FalQueueStatus>({
      method: "GET",
      path: `/${app}/requests/${encodeURIComponent(requestId)}/status`,
      options: request,
    });
    const raw = String(response.data?.status ?? "");
    const status = falStates[raw] ?? "processing";
    const extra: Partial<VideoJob> = { raw_status: raw };
    if (typeof response.data?.queue_position === "number")
      extra.queue_position = response.data.queue_position;
    const failure = response.data?.error;
    if (status === "failed" || (status === "completed" && failure)) {
      const error = {
        message: failure || `the request ended ${raw}`,
        ...(response.data?.error_type ? { code: response.data.error_type } : {}),
      };
      return { job: job(id, "failed", { ...extra, error }), headers: response.headers };
    }
    if (status !== "completed") return { job: job(id, status, extra), headers: response.headers };
    let result: FalVideoResult;
    try {
      result = await fetchResult(context, id, request);
    } catch (error) {
      if (APIError.isInstance(error) && failedResultStatuses.has(error.status ?? 0)) {
        const failed = { message: error.message, ...(error.code ? { code: error.code } : {}) };
        return { job: job(id, "failed", { ...extra, error: failed }), headers: response.headers };
      }
      throw error;
    }
    const url = result.video?.url;
    if (typeof url !== "string" || url === "") {
      throw new APIError(`fal's result of ${id} holds no \`video.url\`: is it a video endpoint?`, {
        code: "invalid_response",
      });
    }
    return {
      job: job(id, "completed", { ...extra, video_url: url, progress: 100, result }),
      headers: response.headers,
    };
  },
  async settle(_context, { params, idempotencyKey, sinceMs }) {
    const since = new Date(sinceMs).toISOString();
    throw new RequestUnsettledError({
      provider: "fal",
      idempotencyKey,
      sinceMs,
      request: `POST ${params.model}`,
      whereToCheck: `Look for a request to ${params.model} made since ${since} with the prompt ${JSON.stringify(params.prompt.slice(0, 80))} in fal's request history (https://fal.ai/dashboard/requests, or GET https://api.fal.ai/v1/models/requests/by-endpoint?endpoint_id=${encodeURIComponent(params.model)}&start=${since}&expand=payloads).`,
    });
  },
  async contentURL(context, id, request) {
    const url = (await fetchResult(context, id, request)).video?.url;
    if (typeof url !== "string" || url === "") {
      throw new APIError(`fal's result of ${id} holds no \`video.url\`.`, {
        code: "invalid_response",
      });
    }
    return url;
  },
  async cancel({ transport }, id, request) {
    const { app, requestId } = parseFalJobId(id);
    await transport.json<unknown>({
      method: "PUT",
      path: `/${app}/requests/${encodeURIComponent(requestId)}/cancel`,
      options: request,
    });
  },
};
