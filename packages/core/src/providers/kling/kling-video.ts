import { APIError } from "../../errors/api-error.js";
import type { RequestOptions } from "../../http/request-options.js";
import type { JSONResponse } from "../../http/transport.js";
import type { VideoJob, VideoJobStatus } from "../../videos/types.js";
import { throwRequestProblems } from "../request-checks.js";
import type { ProviderContext, VideoProvider } from "../video-provider.js";
import type { KlingEnvelope, KlingTask } from "./kling-api-types.js";
import { klingError } from "./kling-errors.js";
import { klingToken, splitKlingKey } from "./kling-jwt.js";
import {
  type KlingAction,
  klingAction,
  klingVideoInput,
  klingVideoProblems,
} from "./kling-video-input.js";

/** Kling's task states as core's job states. */
const klingStates: Readonly<Record<string, VideoJobStatus>> = {
  submitted: "pending",
  processing: "processing",
  succeed: "completed",
  failed: "failed",
};

/**
 * A Kling job id as core keeps it: the task's path and id (`text2video/<task_id>`), so the
 * job can be polled from its id alone.
 *
 * @example
 * ```ts
 * parseKlingJobId("image2video/8671"); // { action: "image2video", taskId: "8671" }
 * ```
 */
export function parseKlingJobId(id: string): { action: KlingAction; taskId: string } {
  const match = /^(text2video|image2video)\/([^/]+)$/.exec(id);
  if (!match) {
    throw new TypeError(
      `Expected a Kling job id of the form text2video/<task id> or image2video/<task id>, got ${JSON.stringify(id)}`,
    );
  }
  return { action: match[1] as KlingAction, taskId: match[2] as string };
}

/** The task of an answer, or Kling's error when the envelope's `code` is not 0. */
function taskOf(response: JSONResponse<KlingEnvelope<KlingTask>>, what: string): KlingTask {
  const envelope = response.data;
  if (envelope && typeof envelope.code === "number" && envelope.code !== 0) {
    throw (
      klingError(response.status, JSON.stringify(envelope), response.requestId, (t) => t) ??
      new APIError(`Kling answered ${what} with code ${envelope.code}.`, {
        code: "invalid_response",
      })
    );
  }
  const task = envelope?.data;
  if (!task || typeof task.task_id !== "string" || task.task_id === "") {
    throw new APIError(`Kling answered ${what} without a \`data.task_id\`.`, {
      status: response.status,
      requestId: response.requestId,
      code: "invalid_response",
    });
  }
  return task;
}

function jobOf(action: KlingAction, task: KlingTask, model = "", prompt = ""): VideoJob {
  const raw = String(task.task_status ?? "");
  const status = klingStates[raw] ?? "processing";
  const job: VideoJob = {
    id: `${action}/${task.task_id}`,
    object: "video",
    status,
    model,
    prompt,
    raw_status: raw,
    ...(typeof task.created_at === "number" ? { created: Math.floor(task.created_at / 1000) } : {}),
  };
  if (task.task_info?.external_task_id) job.external_task_id = task.task_info.external_task_id;
  if (status === "failed") {
    job.error = { message: task.task_status_msg || "Kling's task failed", code: "task_failed" };
  }
  const video = task.task_result?.videos?.[0];
  if (status === "completed") {
    if (!video || typeof video.url !== "string" || video.url === "") {
      throw new APIError(`Kling's finished task ${task.task_id} holds no video URL.`, {
        code: "invalid_response",
      });
    }
    job.video_url = video.url;
    job.progress = 100;
    const seconds = Number(video.duration);
    if (Number.isFinite(seconds)) job.duration = seconds;
  }
  return job;
}

async function getTask(
  { transport }: ProviderContext,
  action: KlingAction,
  id: string,
  request: RequestOptions,
) {
  const response = await transport.json<KlingEnvelope<KlingTask>>({
    method: "GET",
    path: `/v1/videos/${action}/${encodeURIComponent(id)}`,
    options: request,
  });
  return { task: taskOf(response, `GET /v1/videos/${action}/${id}`), headers: response.headers };
}

/**
 * Kling's own API (`https://api-singapore.klingai.com`): `POST /v1/videos/text2video` or
 * `/v1/videos/image2video` with `model_name`, `duration` "5"/"10", `aspect_ratio` and
 * `external_task_id` (the run's idempotency key), then `GET /v1/videos/{action}/{task_id}`
 * (`submitted`, `processing`, `succeed`, `failed`) and the clip at `task_result.videos[0].url`.
 * Auth is a 30-minute HS256 JWT from the access key and the secret key. A submission whose
 * answer was lost is settled by asking for the task by its `external_task_id` (Kling keeps it
 * unique per account), so a resumed run adopts the one task instead of paying for a second.
 */
export const klingVideoProvider: VideoProvider = {
  name: "kling",
  description:
    "Kling's own API: the model is Kling's model_name, the key an access key and a secret key",
  keyEnv: "KLING_ACCESS_KEY",
  keyParts: ["KLING_ACCESS_KEY", "KLING_SECRET_KEY"],
  defaultBaseURL: "https://api-singapore.klingai.com",
  settlement: ["idempotency-key"],
  // The key travels in the body (`external_task_id`), not in a header: a submission is resent
  // only on a 429 or when it cannot have left, and a lost answer is settled by the query.
  idempotencyHeader: undefined,
  authHeaders(apiKey) {
    const { accessKey, secretKey } = splitKlingKey(apiKey);
    return { authorization: `Bearer ${klingToken(accessKey, secretKey)}` };
  },
  errorFromResponse: klingError,
  validate(params) {
    throwRequestProblems(klingVideoProblems(params));
  },
  async submit({ transport }, { params, idempotencyKey, request }) {
    const action = klingAction(params);
    const response = await transport.json<KlingEnvelope<KlingTask>>({
      method: "POST",
      path: `/v1/videos/${action}`,
      body: klingVideoInput(params, idempotencyKey),
      options: request,
      submission: { idempotencyKey, request: `POST /v1/videos/${action} (Kling)` },
    });
    const task = taskOf(response, `POST /v1/videos/${action}`);
    return {
      ...jobOf(action, task, params.model, params.prompt),
      created: Math.floor(Date.now() / 1000),
    };
  },
  async retrieve(context, id, request) {
    const { action, taskId } = parseKlingJobId(id);
    const { task, headers } = await getTask(context, action, taskId, request);
    return { job: jobOf(action, task), headers };
  },
  async settle(context, { params, idempotencyKey, request }) {
    const action = klingAction(params);
    try {
      const { task } = await getTask(context, action, idempotencyKey, request);
      return { via: "idempotency-key", jobs: [jobOf(action, task, params.model, params.prompt)] };
    } catch (error) {
      // No task has that external_task_id: the submission never reached Kling.
      if (APIError.isInstance(error) && (error.status === 404 || error.code === "1203")) {
        return { via: "idempotency-key", jobs: [] };
      }
      throw error;
    }
  },
  async contentURL(context, id, request) {
    const { action, taskId } = parseKlingJobId(id);
    const { task } = await getTask(context, action, taskId, request);
    const url = jobOf(action, task).video_url;
    if (!url) {
      throw new APIError(`Kling's task ${taskId} is ${task.task_status}, not finished.`, {
        code: "video_not_ready",
      });
    }
    return url;
  },
  async cancel(_context, id) {
    throw new TypeError(
      `Kling's API has no way to stop a task: ${id} runs to its end, and is charged if it succeeds`,
    );
  },
};
