import { setTimeout as sleep } from "node:timers/promises";
import { APIError } from "../../errors/api-error.js";
import type { RequestProblem } from "../../errors/invalid-request-error.js";
import { accessOf } from "../../http/provider-access.js";
import type { ImageProvider } from "../image-provider.js";
import type { ReplicatePrediction } from "./replicate-api-types.js";
import { replicateModel } from "./replicate-model.js";
import { replicateVideoProvider } from "./replicate-video.js";

/** The input fields core sets itself: a params field naming one would set it twice. */
const ownFields = ["prompt", "aspect_ratio", "num_outputs", "output_format"] as const;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** `1024x768` → `4:3`: the aspect ratio image models on Replicate take instead of a size. */
export function replicateAspectRatio(size: string): string | undefined {
  const found = /^(\d+)x(\d+)$/.exec(size);
  if (!found) return undefined;
  const width = Number(found[1]);
  const height = Number(found[2]);
  if (width === 0 || height === 0) return undefined;
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
}

/**
 * Replicate's image models through its predictions API (e.g. `black-forest-labs/flux-schnell`):
 * `POST /v1/models/{owner}/{name}/predictions` (or `/v1/predictions` for a pinned version)
 * with `{ input: { prompt, aspect_ratio, num_outputs, output_format: "png", … } }`, then
 * `GET /v1/predictions/{id}` until `succeeded`, and the `output` URLs (they expire after an
 * hour; core fetches them at once). Text to image only. No idempotency key: a request whose
 * answer was lost is never sent again.
 *
 * @example
 * ```ts
 * await replicateImageProvider.generate({ transport }, { params: { model: "black-forest-labs/flux-schnell", prompt: "A lighthouse", size: "1024x1024" }, idempotencyKey, spec: undefined, request: {} });
 * ```
 */
export const replicateImageProvider: ImageProvider = {
  ...accessOf(replicateVideoProvider),
  problems(params) {
    const problems: RequestProblem[] = [];
    if (params.size !== undefined && replicateAspectRatio(params.size) === undefined) {
      problems.push({
        field: "size",
        message: `Replicate's image models take an aspect ratio, written here as a size WIDTHxHEIGHT; got ${JSON.stringify(params.size)}`,
      });
    }
    if (params.response_format === "b64_json") {
      problems.push({
        field: "response_format",
        message: "Replicate answers images as output URLs: leave response_format out (or url)",
      });
    }
    for (const field of ownFields) {
      if (params.params && Object.hasOwn(params.params, field))
        problems.push({
          field: `params.${field}`,
          message: `${field} is set from the request's own fields (prompt, size, n); leave it out of params`,
        });
    }
    return problems;
  },
  async generate({ transport }, { params, idempotencyKey, request }) {
    const input: Record<string, unknown> = {
      ...params.params,
      prompt: params.prompt,
      output_format: "png",
    };
    if (params.size !== undefined) input.aspect_ratio = replicateAspectRatio(params.size);
    if (params.n !== undefined) input.num_outputs = params.n;
    const { owner, name, version } = replicateModel(params.model);
    const created = await transport.json<ReplicatePrediction>({
      method: "POST",
      path:
        version !== undefined
          ? "/v1/predictions"
          : `/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/predictions`,
      body: version !== undefined ? { version, input } : { input },
      options: request,
      submission: { idempotencyKey, request: "POST /v1/models/{owner}/{name}/predictions" },
    });
    let prediction = created.data;
    const id = prediction?.id;
    if (typeof id !== "string")
      throw new TypeError(`Replicate answered ${params.model} without a prediction id`);
    while (prediction.status === "starting" || prediction.status === "processing") {
      await sleep(transport.config.pollIntervalMs, undefined, { signal: request.signal });
      prediction = (
        await transport.json<ReplicatePrediction>({
          method: "GET",
          path: `/v1/predictions/${encodeURIComponent(id)}`,
          options: request,
        })
      ).data;
    }
    if (prediction.status !== "succeeded")
      throw new APIError(
        `Replicate's ${params.model} ${prediction.status === "canceled" ? "was canceled" : `failed: ${String(prediction.error ?? "no reason given")}`}`,
        { status: 422, code: `prediction_${prediction.status}`, requestId: id },
      );
    const output = Array.isArray(prediction.output) ? prediction.output : [prediction.output];
    return {
      data: output.filter((url): url is string => typeof url === "string").map((url) => ({ url })),
      requestId: id,
    };
  },
};
