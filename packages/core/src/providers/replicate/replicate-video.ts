import { AmbiguousSubmissionError } from "../../errors/ambiguous-submission-error.js";
import { APIError } from "../../errors/api-error.js";
import type { RequestOptions } from "../../http/request-options.js";
import { CREATED_SLACK_SECONDS } from "../../videos/match-submission.js";
import type { VideoCreateParams, VideoJob, VideoJobStatus } from "../../videos/types.js";
import { throwRequestProblems } from "../request-checks.js";
import type { ProviderContext, VideoJobPage, VideoProvider } from "../video-provider.js";
import type { ReplicatePrediction, ReplicatePredictionPage } from "./replicate-api-types.js";
import { replicateModel } from "./replicate-model.js";
import { replicateVideoInput, replicateVideoProblems } from "./replicate-video-input.js";

/** Replicate's prediction states as core's job states (a canceled prediction failed). */
const replicateStates: Readonly<Record<string, VideoJobStatus>> = {
  starting: "pending",
  processing: "processing",
  succeeded: "completed",
  failed: "failed",
  canceled: "failed",
};

/** Pages of the prediction list read at most while settling one submission. */
const MAX_SETTLE_PAGES = 50;

function seconds(iso: unknown): number | undefined {
  if (typeof iso !== "string") return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** The first URL of a prediction's `output` (a URL, or a list of them). */
function outputURL(output: unknown): string | undefined {
  const first = Array.isArray(output) ? output[0] : output;
  return typeof first === "string" && first !== "" ? first : undefined;
}

/** A prediction as core's job: its id, state, model, prompt, times and output URL. */
export function predictionAsJob(prediction: ReplicatePrediction): VideoJob {
  if (!prediction || typeof prediction.id !== "string" || prediction.id === "") {
    throw new APIError("Replicate answered without a prediction `id`.", {
      code: "invalid_response",
    });
  }
  const raw = String(prediction.status ?? "");
  const status = replicateStates[raw] ?? "processing";
  const prompt = prediction.input?.prompt;
  const job: VideoJob = {
    id: prediction.id,
    object: "video",
    status,
    model: prediction.model ?? "",
    prompt: typeof prompt === "string" ? prompt : "",
    raw_status: raw,
  };
  const created = seconds(prediction.created_at);
  if (created !== undefined) job.created = created;
  const completed = seconds(prediction.completed_at);
  if (completed !== undefined) job.completed_at = completed;
  if (status === "failed") {
    const message =
      typeof prediction.error === "string" && prediction.error !== ""
        ? prediction.error
        : `the prediction ended ${raw}`;
    job.error = raw === "canceled" ? { code: "canceled", message } : { message };
  }
  if (status === "completed") {
    const url = outputURL(prediction.output);
    if (!url) {
      throw new APIError(
        `Replicate's prediction ${prediction.id} succeeded without an output URL: is ${prediction.model ?? "the model"} a video model?`,
        { code: "invalid_response" },
      );
    }
    job.video_url = url;
    job.progress = 100;
    // Replicate deletes the output an hour after the prediction ends.
    if (completed !== undefined) job.output_expires_at = completed + 3600;
  }
  return job;
}

/** `POST /v1/models/{owner}/{name}/predictions`, or `POST /v1/predictions` for a pinned version. */
function submitRequest(params: VideoCreateParams): {
  path: string;
  body: (input: Record<string, unknown>) => Record<string, unknown>;
} {
  const { owner, name, version } = replicateModel(params.model);
  if (version !== undefined) {
    return { path: "/v1/predictions", body: (input) => ({ version, input }) };
  }
  return {
    path: `/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/predictions`,
    body: (input) => ({ input }),
  };
}

/**
 * Whether a listed input is what the submission sent: every field equal, except a file sent
 * as a data URI, which Replicate may show as the URL it stored it at.
 */
function sameInput(listed: Record<string, unknown>, sent: Record<string, unknown>): boolean {
  const names = new Set([...Object.keys(listed), ...Object.keys(sent)]);
  for (const name of names) {
    const a = listed[name];
    const b = sent[name];
    if (typeof b === "string" && /^data:/i.test(b) && typeof a === "string") continue;
    if (JSON.stringify(a) !== JSON.stringify(b)) return false;
  }
  return true;
}

async function listPage(
  { transport }: ProviderContext,
  path: string,
  request: RequestOptions,
): Promise<ReplicatePredictionPage> {
  const response = await transport.json<ReplicatePredictionPage>({
    method: "GET",
    path,
    options: request,
  });
  return response.data ?? {};
}

/**
 * Replicate's predictions API (`https://api.replicate.com/v1`): `POST
 * /v1/models/{owner}/{name}/predictions` with `{ input }` (the model's own fields), then `GET
 * /v1/predictions/{id}` (`starting`, `processing`, `succeeded`, `failed`, `canceled`), the
 * clip at the URL in `output` (for an hour), `POST /v1/predictions/{id}/cancel`, Bearer
 * auth (`REPLICATE_API_TOKEN`). Replicate honours no idempotency key: a submission is sent
 * once (resent only on a 429 or when it cannot have left), and one whose answer was lost is
 * found again in `GET /v1/predictions?created_after=…` (newest first, 100 a page) by its
 * model and its exact input.
 */
export const replicateVideoProvider: VideoProvider = {
  name: "replicate",
  description: "Replicate's predictions at api.replicate.com: the model is owner/name",
  keyEnv: "REPLICATE_API_TOKEN",
  defaultBaseURL: "https://api.replicate.com/v1",
  settlement: ["list"],
  idempotencyHeader: undefined,
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  validate(params) {
    throwRequestProblems(replicateVideoProblems(params));
  },
  async submit({ transport }, { params, idempotencyKey, spec, request }) {
    const { path, body } = submitRequest(params);
    const response = await transport.json<ReplicatePrediction>({
      method: "POST",
      path,
      body: body(replicateVideoInput(params, spec)),
      options: request,
      submission: { idempotencyKey, request: `POST ${path} (replicate)` },
    });
    const job = predictionAsJob(response.data);
    return { ...job, model: params.model, prompt: params.prompt };
  },
  async retrieve({ transport }, id, request) {
    const response = await transport.json<ReplicatePrediction>({
      method: "GET",
      path: `/v1/predictions/${encodeURIComponent(id)}`,
      options: request,
    });
    return { job: predictionAsJob(response.data), headers: response.headers };
  },
  async list(context, query, request) {
    // Replicate pages by cursor, newest first: `after` is the `next` URL of the page before.
    const page = await listPage(context, query.after ?? "/v1/predictions", request);
    const data = (page.results ?? []).map(predictionAsJob);
    return {
      data,
      has_more: typeof page.next === "string" && page.next !== "",
      last_id: page.next ?? undefined,
    } satisfies VideoJobPage;
  },
  async settle(context, { params, idempotencyKey, sinceMs, request }) {
    const { version } = replicateModel(params.model);
    const model = params.model.split(":")[0];
    const sent = replicateVideoInput(params);
    const oldest = sinceMs / 1000 - CREATED_SLACK_SECONDS;
    const found: { job: VideoJob; created: number }[] = [];
    // Replicate filters the list by creation time; the scan below stops at older ones anyway.
    const after = new Date(oldest * 1000).toISOString();
    let path: string | undefined = `/v1/predictions?created_after=${encodeURIComponent(after)}`;
    for (let page = 0; path && page < MAX_SETTLE_PAGES; page++) {
      const listed: ReplicatePredictionPage = await listPage(context, path, request);
      let older = false;
      for (const prediction of listed.results ?? []) {
        const created = seconds(prediction.created_at);
        if (created === undefined) {
          throw new AmbiguousSubmissionError(idempotencyKey, { resolvable: false });
        }
        if (created < oldest) {
          older = true;
          continue;
        }
        if (prediction.model !== model) continue;
        if (version !== undefined && prediction.version !== version) continue;
        // A listing without the input cannot tell this request from another of the model.
        if (!prediction.input || typeof prediction.input !== "object") {
          throw new AmbiguousSubmissionError(idempotencyKey, { resolvable: false });
        }
        if (!sameInput(prediction.input, sent)) continue;
        found.push({ job: { ...predictionAsJob(prediction), model: params.model }, created });
      }
      if (older) break;
      path = listed.next ?? undefined;
    }
    found.sort((a, b) => a.created - b.created);
    return { via: "list", jobs: found.map((entry) => entry.job) };
  },
  async contentURL(context, id, request) {
    // Fetched anew: the output URL of an hour ago may have expired.
    const { job } = await replicateVideoProvider.retrieve(context, id, request);
    if (job.status !== "completed" || typeof job.video_url !== "string") {
      throw new APIError(`Replicate's prediction ${id} is ${job.status}: it has no output yet.`, {
        code: "video_not_ready",
      });
    }
    return job.video_url;
  },
  async cancel({ transport }, id, request) {
    await transport.json<unknown>({
      method: "POST",
      path: `/v1/predictions/${encodeURIComponent(id)}/cancel`,
      options: request,
    });
  },
};
