import { HttpError } from "../../errors/http-error.js";
import type { RequestContext, RouteHandler, SimulatorContext } from "../../server/context.js";
import type { ReceivedVideoRequest } from "../../videos/received-video-request.js";
import { validateVideoRequest } from "../../videos/validate-video-request.js";
import type { VideoJobRecord } from "../../videos/video-job.js";
import {
  type FalImageRequest,
  falImageOutput,
  falImageRequests,
  submitFalImage,
} from "./fal-image-requests.js";
import { falInputAsVideoBody } from "./fal-input.js";
import {
  type FalSpeechRequest,
  falSpeechOutput,
  falSpeechRequests,
  isFalSpeechEndpoint,
  submitFalSpeech,
} from "./fal-speech-requests.js";

/** The app an endpoint's queue requests live under: `owner/alias` (with `workflows/` or `comfy/` before). */
export function falApp(endpoint: string): string {
  const parts = endpoint.split("/");
  const head = parts[0] === "workflows" || parts[0] === "comfy" ? 3 : 2;
  return parts.slice(0, head).join("/");
}

function urls(simulator: SimulatorContext, job: VideoJobRecord) {
  const base = `${simulator.url}/${falApp(job.request.model)}/requests/${job.id}`;
  return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
}

/** The job of `…/requests/{id}` under the app it was made for, else fal's 404. */
function findRequest(context: RequestContext, simulator: SimulatorContext): VideoJobRecord {
  const { app = "", id = "" } = context.params;
  const job = simulator.videos.get(id);
  if (!job || falApp(job.request.model) !== app) {
    throw new HttpError(404, `Request ${id} not found.`, { code: "request_not_found" });
  }
  return job;
}

/** The image request of `…/requests/{id}` under the app it was made for, if it is one. */
function findImageRequest(
  context: RequestContext,
  simulator: SimulatorContext,
): FalImageRequest | undefined {
  const { app = "", id = "" } = context.params;
  const made = falImageRequests(simulator).get(id);
  return made && falApp(made.endpoint) === app ? made : undefined;
}

/** The speech request of `…/requests/{id}` under the app it was made for, if it is one. */
function findSpeechRequest(
  context: RequestContext,
  simulator: SimulatorContext,
): FalSpeechRequest | undefined {
  const made = falSpeechRequests(simulator).get(context.params.id ?? "");
  return made && falApp(made.endpoint) === (context.params.app ?? "") ? made : undefined;
}

function imageUrls(simulator: SimulatorContext, made: { id: string; endpoint: string }) {
  const base = `${simulator.url}/${falApp(made.endpoint)}/requests/${made.id}`;
  return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
}

/** Queued requests (images, speech) whose result was not fetched yet: the account still holds them. */
const unfetched = new WeakSet<object>();

/**
 * Makes a queued request that is done at once (an image, speech) and counts it as held by the
 * account from its submission until its result is first fetched, as fal counts a request
 * against the caller's concurrency until it is answered.
 */
async function heldUntilFetched<T extends object>(
  simulator: SimulatorContext,
  submit: () => Promise<T>,
): Promise<T> {
  simulator.stats.queuedRequestSubmitted();
  try {
    const made = await submit();
    unfetched.add(made);
    return made;
  } catch (error) {
    simulator.stats.queuedRequestDone();
    throw error;
  }
}

/** The first fetch of a queued request's result: the account no longer holds it. */
function fetched(simulator: SimulatorContext, made: object): void {
  if (unfetched.delete(made)) simulator.stats.queuedRequestDone();
}

/** How many requests were queued before this one and still wait. */
function queuePosition(simulator: SimulatorContext, job: VideoJobRecord): number {
  return simulator.videos
    .list()
    .filter((other) => other.status === "pending" && other.createdMs < job.createdMs).length;
}

/**
 * `POST /{endpoint}`: the model's own input, queued (fal honours no idempotency key: every
 * request makes, and is charged, anew). Answers `{ request_id, response_url, status_url,
 * cancel_url, queue_position }`.
 */
export const handleFalSubmit: RouteHandler = async (context, simulator) => {
  const endpoint = context.params.endpoint ?? "";
  const input = await context.readJson();
  if (simulator.catalog.imageModels.some((model) => model.id === endpoint)) {
    const made = await heldUntilFetched(simulator, () =>
      submitFalImage(context, simulator, endpoint, input),
    );
    await context.send(
      200,
      { status: "IN_QUEUE", request_id: made.id, ...imageUrls(simulator, made), queue_position: 0 },
      { "x-fal-request-id": made.id },
    );
    return;
  }
  if (isFalSpeechEndpoint(endpoint)) {
    const made = await heldUntilFetched(simulator, () =>
      submitFalSpeech(context, simulator, endpoint, input),
    );
    await context.send(
      200,
      { status: "IN_QUEUE", request_id: made.id, ...imageUrls(simulator, made), queue_position: 0 },
      { "x-fal-request-id": made.id },
    );
    return;
  }
  const received: ReceivedVideoRequest = {
    contentType: "application/json",
    fields: { ...input },
    files: [],
  };
  simulator.received.push(received);
  let job: VideoJobRecord;
  try {
    const spec = simulator.catalog.videoModels.find((model) => model.id === endpoint);
    if (!spec) {
      throw new HttpError(404, `Application '${endpoint}' not found.`, { code: "not_found" });
    }
    const request = validateVideoRequest(falInputAsVideoBody(endpoint, input, spec), {
      catalog: simulator.catalog.videoModels,
      imageField: "image_url",
    });
    job = simulator.videos.create(request, undefined).job;
  } catch (error) {
    received.status = HttpError.isInstance(error) ? error.status : 500;
    throw error;
  }
  received.status = 200;
  await context.send(
    200,
    {
      status: "IN_QUEUE",
      request_id: job.id,
      ...urls(simulator, job),
      queue_position: queuePosition(simulator, job),
    },
    { "x-fal-request-id": job.id },
  );
};

const falStatus = {
  pending: "IN_QUEUE",
  processing: "IN_PROGRESS",
  completed: "COMPLETED",
  failed: "COMPLETED",
} as const;

/**
 * `GET /{app}/requests/{id}/status`: `IN_QUEUE` (with its position) and `IN_PROGRESS` with
 * 202, `COMPLETED` with 200 (and `error`, `error_type` when it failed).
 */
export const handleFalStatus: RouteHandler = async (context, simulator) => {
  const image = findImageRequest(context, simulator) ?? findSpeechRequest(context, simulator);
  if (image) {
    await context.send(200, {
      status: "COMPLETED",
      request_id: image.id,
      ...imageUrls(simulator, image),
      logs: null,
      metrics: { inference_time: 0 },
    });
    return;
  }
  const job = findRequest(context, simulator);
  const body: Record<string, unknown> = {
    status: falStatus[job.status],
    request_id: job.id,
    ...urls(simulator, job),
  };
  if (job.status === "pending") body.queue_position = queuePosition(simulator, job);
  else body.logs = null;
  if (job.status === "completed" || job.status === "failed") {
    body.metrics = { inference_time: (job.doneAtMs - job.processingAtMs) / 1000 };
  }
  if (job.status === "failed") {
    body.error = job.error?.message ?? "The request failed.";
    body.error_type = job.error?.code ?? "runner_error";
  }
  const done = job.status === "completed" || job.status === "failed";
  await context.send(done ? 200 : 202, body);
};

/**
 * `GET /{app}/requests/{id}`: the output of a completed request, `{ video: { url,
 * content_type, file_name } }`, the URL on the simulator's stand-in for fal's CDN (no key
 * needed); 400 while it runs, 422 with the reason when it failed.
 */
export const handleFalResult: RouteHandler = async (context, simulator) => {
  const image = findImageRequest(context, simulator);
  if (image) {
    fetched(simulator, image);
    await context.send(200, falImageOutput(simulator, image), { "x-fal-request-id": image.id });
    return;
  }
  const speech = findSpeechRequest(context, simulator);
  if (speech) {
    fetched(simulator, speech);
    await context.send(200, falSpeechOutput(simulator, speech), { "x-fal-request-id": speech.id });
    return;
  }
  const job = findRequest(context, simulator);
  if (job.status === "failed") {
    throw new HttpError(422, job.error?.message ?? "The request failed.", {
      code: job.error?.code ?? "runner_error",
    });
  }
  if (job.status !== "completed") {
    throw new HttpError(400, "Request is still in progress.", { code: "still_in_progress" });
  }
  await context.send(
    200,
    {
      video: {
        url: `${simulator.url}/files/${job.id}/output.mp4`,
        content_type: "video/mp4",
        file_name: "output.mp4",
      },
      seed: job.createdMs % 100_000,
    },
    { "x-fal-request-id": job.id },
  );
};

/** `PUT /{app}/requests/{id}/cancel`: 202 `CANCELLATION_REQUESTED`, or 400 `ALREADY_COMPLETED`. */
export const handleFalCancel: RouteHandler = async (context, simulator) => {
  if (findImageRequest(context, simulator) || findSpeechRequest(context, simulator)) {
    await context.send(400, { status: "ALREADY_COMPLETED" });
    return;
  }
  const job = findRequest(context, simulator);
  if (simulator.videos.cancel(job)) {
    await context.send(202, { status: "CANCELLATION_REQUESTED" });
    return;
  }
  await context.send(400, { status: "ALREADY_COMPLETED" });
};
