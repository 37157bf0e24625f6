import type { RequestProblem } from "../../errors/invalid-request-error.js";
import { accessOf } from "../../http/provider-access.js";
import type { ImageProvider } from "../image-provider.js";
import type { FalImageResult } from "./fal-api-types.js";
import { falQueueCall } from "./fal-queue-call.js";
import { falVideoProvider } from "./fal-video.js";

/** The request fields core sets itself: a params field naming one would set it twice. */
const ownFields = ["prompt", "image_size", "num_images"] as const;

/**
 * fal's image endpoints through its queue (`POST /{endpoint}`, e.g. `fal-ai/flux/dev`, with
 * `prompt`, `image_size: { width, height }`, `num_images` and the model's own params), then
 * `…/requests/{id}/status` until `COMPLETED`, then the output's `images[].url` (fal's CDN).
 * Text to image only (fal's image-to-image endpoints take their own input fields). No
 * idempotency key: a request whose answer was lost is never sent again.
 *
 * @example
 * ```ts
 * await falImageProvider.generate({ transport }, { params: { model: "fal-ai/flux/dev", prompt: "A lighthouse", size: "1024x768" }, idempotencyKey, spec: undefined, request: {} });
 * ```
 */
export const falImageProvider: ImageProvider = {
  ...accessOf(falVideoProvider),
  problems(params) {
    const problems: RequestProblem[] = [];
    if (params.size !== undefined && !/^\d+x\d+$/.test(params.size)) {
      problems.push({
        field: "size",
        message: `fal takes an image size as WIDTHxHEIGHT (sent as image_size); got ${JSON.stringify(params.size)}`,
      });
    }
    if (params.response_format === "b64_json") {
      problems.push({
        field: "response_format",
        message: "fal answers images as URLs on its CDN: leave response_format out (or url)",
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
    const input: Record<string, unknown> = { ...params.params, prompt: params.prompt };
    if (params.size !== undefined) {
      const [width, height] = params.size.split("x").map(Number);
      input.image_size = { width, height };
    }
    if (params.n !== undefined) input.num_images = params.n;
    const { result, requestId } = await falQueueCall<FalImageResult>(transport, {
      endpoint: params.model,
      input,
      idempotencyKey,
      request,
    });
    return {
      data: (result?.images ?? []).map((image) => ({ url: image.url })),
      requestId,
    };
  },
};
