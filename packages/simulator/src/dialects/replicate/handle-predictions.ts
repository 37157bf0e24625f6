import { createHash } from "node:crypto";
import { HttpError } from "../../errors/http-error.js";
import type { RequestContext, RouteHandler, SimulatorContext } from "../../server/context.js";
import { sleep } from "../../util/sleep.js";
import type { ReceivedVideoRequest } from "../../videos/received-video-request.js";
import { validateVideoRequest } from "../../videos/validate-video-request.js";
import type { VideoJobRecord } from "../../videos/video-job.js";
import { createImagePrediction, findImagePrediction } from "./replicate-image-predictions.js";
import { replicateFieldName, replicateInputAsVideoBody } from "./replicate-input.js";

/** Predictions per page of `GET /v1/predictions`. */
export const predictionPageSize = 100;

/** Longest a `Prefer: wait` holds the answer, in seconds (as Replicate). */
const maxWaitSeconds = 60;

/** What a prediction was made from: its model (`owner/name`), version and input as sent. */
interface PredictionOrigin {
  model: string;
  version: string;
  input: Record<string, unknown>;
}

const origins = new WeakMap<VideoJobRecord, PredictionOrigin>();

/** A stable version id of a model that pins none (Replicate's are 64 hex digits). */
function versionOf(model: string): string {
  return createHash("sha256").update(model).digest("hex");
}

function iso(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}

const replicateStatus = {
  pending: "starting",
  processing: "processing",
  completed: "succeeded",
  failed: "failed",
} as const;

/** A job as Replicate's prediction object. */
export function predictionJson(
  job: VideoJobRecord,
  simulator: Pick<SimulatorContext, "url">,
): Record<string, unknown> {
  const origin = origins.get(job) ?? {
    model: job.request.model,
    version: versionOf(job.request.model),
    input: { prompt: job.request.prompt },
  };
  const canceled = job.status === "failed" && job.error?.code === "request_cancelled";
  const done = job.status === "completed" || job.status === "failed";
  const base = `${simulator.url}/v1/predictions/${job.id}`;
  const completedMs = done ? (job.completedAt ?? job.doneAtMs / 1000) * 1000 : undefined;
  return {
    id: job.id,
    model: origin.model,
    version: origin.version,
    input: origin.input,
    logs: job.status === "pending" ? "" : "Generating video\n",
    output: job.status === "completed" ? `${simulator.url}/files/${job.id}/output.mp4` : null,
    data_removed: false,
    error: job.status === "failed" && !canceled ? (job.error?.message ?? "failed") : null,
    status: canceled ? "canceled" : replicateStatus[job.status],
    source: "api",
    created_at: iso(job.createdMs),
    started_at: job.status === "pending" ? null : iso(Math.min(job.processingAtMs, Date.now())),
    completed_at: iso(completedMs),
    urls: { get: base, cancel: `${base}/cancel` },
    metrics: done ? { predict_time: Math.max(0, job.doneAtMs - job.processingAtMs) / 1000 } : {},
  };
}

/** The prediction of `:id`, else Replicate's 404. */
function findPrediction(context: RequestContext, simulator: SimulatorContext): VideoJobRecord {
  const id = context.params.id ?? "";
  const job = simulator.videos.get(id);
  if (!job)
    throw new HttpError(404, "The requested resource could not be found.", { code: "not_found" });
  return job;
}

/** The catalog model of `owner/name`, or of a version id (`POST /v1/predictions`). */
function modelOf(
  simulator: SimulatorContext,
  path: string | undefined,
  version: unknown,
): { id: string; model: string; version: string } {
  const models = simulator.catalog.videoModels;
  if (path !== undefined) {
    const spec = models.find((entry) => entry.id === path);
    if (!spec) {
      throw new HttpError(404, `Model ${path} not found, or you do not have access to it.`, {
        code: "not_found",
      });
    }
    return { id: spec.id, model: path, version: versionOf(path) };
  }
  if (typeof version !== "string" || version === "") {
    throw HttpError.badRequest("version is required.", "version", "required");
  }
  const pinned = version.includes(":") ? version.split(":").at(-1) : version;
  const spec = models.find(
    (entry) => entry.id.endsWith(`:${pinned}`) || versionOf(entry.id) === pinned,
  );
  if (!spec) {
    throw new HttpError(422, `Invalid version or not permitted: ${version}.`, {
      param: "version",
      code: "invalid_version",
    });
  }
  const [model = spec.id] = spec.id.split(":");
  return {
    id: spec.id,
    model,
    version: spec.id.includes(":") ? (pinned ?? "") : versionOf(spec.id),
  };
}

/** Holds the answer while the prediction runs, for `Prefer: wait` or `wait=n` (at most 60 s). */
async function honourWait(
  context: RequestContext,
  simulator: SimulatorContext,
  job: VideoJobRecord,
): Promise<void> {
  const prefer = /(?:^|[;,\s])wait(?:=(\d+))?/i.exec(String(context.request.headers.prefer ?? ""));
  if (!prefer) return;
  const seconds = Math.min(maxWaitSeconds, Math.max(1, Number(prefer[1] ?? maxWaitSeconds)));
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const current = simulator.videos.get(job.id);
    if (!current || current.status === "completed" || current.status === "failed") return;
    const left = Math.min(deadline, current.doneAtMs + 1) - Date.now();
    if (Date.now() >= deadline) return;
    if (!(await sleep(Math.max(1, left), context.signal))) return;
  }
}

/**
 * `POST /v1/models/{owner}/{name}/predictions` (or `POST /v1/predictions` with `version`):
 * `{ input }` with the model's own fields. Replicate honours no idempotency key: every
 * request makes, and is charged, a new prediction. Answers 201 with the prediction
 * (`starting`), or later with `Prefer: wait`.
 */
export const handleCreatePrediction: RouteHandler = async (context, simulator) => {
  const body = await context.readJson();
  const input =
    body.input && typeof body.input === "object" && !Array.isArray(body.input)
      ? (body.input as Record<string, unknown>)
      : undefined;
  const { owner: imageOwner, name: imageName } = context.params;
  if (input && imageOwner !== undefined && imageName !== undefined) {
    const image = await createImagePrediction(
      context,
      simulator,
      `${imageOwner}/${imageName}`,
      input,
    );
    if (image) {
      await context.send(201, image);
      return;
    }
  }
  const received: ReceivedVideoRequest = {
    contentType: "application/json",
    fields: { ...(input ?? {}) },
    files: [],
  };
  simulator.received.push(received);
  let job: VideoJobRecord;
  try {
    const { owner, name } = context.params;
    const path = owner !== undefined && name !== undefined ? `${owner}/${name}` : undefined;
    const model = modelOf(simulator, path, body.version);
    if (!input) throw HttpError.badRequest("input is required.", "input", "required");
    const spec = simulator.catalog.videoModels.find((entry) => entry.id === model.id);
    let request: ReturnType<typeof validateVideoRequest>;
    try {
      request = validateVideoRequest(replicateInputAsVideoBody(model.id, input, spec), {
        catalog: simulator.catalog.videoModels,
        imageField: "image",
      });
    } catch (error) {
      if (!HttpError.isInstance(error) || error.param === null) throw error;
      throw new HttpError(422, error.message, {
        param: replicateFieldName(error.param, input),
        code: error.code,
      });
    }
    job = simulator.videos.create(request, undefined).job;
    origins.set(job, { model: model.model, version: model.version, input });
  } catch (error) {
    received.status = HttpError.isInstance(error) ? error.status : 500;
    throw error;
  }
  received.status = 201;
  await honourWait(context, simulator, job);
  const current = simulator.videos.get(job.id) ?? job;
  await context.send(201, predictionJson(current, simulator));
};

/** `GET /v1/predictions/{id}`: the prediction in its current state. */
export const handleGetPrediction: RouteHandler = async (context, simulator) => {
  const image = findImagePrediction(simulator, context.params.id ?? "");
  if (image) {
    await context.send(200, image);
    return;
  }
  await context.send(200, predictionJson(findPrediction(context, simulator), simulator));
};

/**
 * `POST /v1/predictions/{id}/cancel`: a running prediction ends `canceled` and is not
 * charged; one already done is answered as it is.
 */
export const handleCancelPrediction: RouteHandler = async (context, simulator) => {
  const job = findPrediction(context, simulator);
  simulator.videos.cancel(job);
  await context.send(200, predictionJson(job, simulator));
};

function encodeCursor(cursor: { after?: string; before?: string }): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string): { after?: string; before?: string } {
  try {
    const cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
    if (cursor && typeof cursor === "object") return cursor as { after?: string; before?: string };
  } catch {
    // answered below
  }
  throw HttpError.badRequest("Invalid cursor.", "cursor", "invalid_cursor");
}

/** A `created_after` / `created_before` filter in ms (ISO 8601), else a 400 naming it. */
function timeFilter(query: URLSearchParams, name: string): number {
  const value = query.get(name);
  if (value === null)
    return name === "created_after" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) {
    throw HttpError.badRequest(
      `${name} must be an ISO 8601 date-time; got ${JSON.stringify(value)}.`,
      name,
      "invalid_datetime",
    );
  }
  return ms;
}

/**
 * `GET /v1/predictions[?created_after&created_before&cursor]`: the account's predictions, newest first, a page at a
 * time: `{ next, previous, results }`, `next` the URL of the older page (null at the end);
 * `created_after` and `created_before` (ISO 8601) keep only those created in that window.
 */
export const handleListPredictions: RouteHandler = async (context, simulator) => {
  const query = new URL(context.request.url ?? "/", "http://simulator").searchParams;
  const after = timeFilter(query, "created_after");
  const before = timeFilter(query, "created_before");
  const jobs = simulator.videos
    .list()
    .filter((job) => job.createdMs >= after && job.createdMs < before)
    .reverse();
  const cursor = query.get("cursor");
  let start = 0;
  if (cursor !== null) {
    const { after, before } = decodeCursor(cursor);
    const at = jobs.findIndex((job) => job.id === (after ?? before));
    if (at < 0) throw HttpError.badRequest("Invalid cursor.", "cursor", "invalid_cursor");
    start = after !== undefined ? at + 1 : Math.max(0, at - predictionPageSize);
  }
  const page = jobs.slice(start, start + predictionPageSize);
  // The next and previous pages keep the time filters.
  const filters = new URLSearchParams();
  for (const name of ["created_after", "created_before"]) {
    const value = query.get(name);
    if (value !== null) filters.set(name, value);
  }
  const url = `${simulator.url}/v1/predictions?${filters.size > 0 ? `${filters}&` : ""}`;
  const last = page.at(-1);
  const first = page[0];
  await context.send(200, {
    next:
      last && start + predictionPageSize < jobs.length
        ? `${url}cursor=${encodeCursor({ after: last.id })}`
        : null,
    previous: first && start > 0 ? `${url}cursor=${encodeCursor({ before: first.id })}` : null,
    results: page.map((job) => predictionJson(job, simulator)),
  });
};
