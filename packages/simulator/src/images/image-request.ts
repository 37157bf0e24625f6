import type { ImageModelInfo } from "../catalog/media-models.js";
import { HttpError } from "../errors/http-error.js";

/** An image request the simulator accepted. */
export interface ImageRequest {
  model: string;
  prompt: string;
  size: string;
  n: number;
  responseFormat: "url" | "b64_json";
  quality?: string;
}

const maxPromptCharacters = 32_000;

function bad(message: string, param: string, code = "invalid_value"): HttpError {
  return new HttpError(400, message, { param, code });
}

/**
 * Check the fields of `POST /v1/images/generations` (JSON) or `/v1/images/edits` (multipart
 * text fields, so numbers may come as strings) against the image models: an unknown model, an
 * empty prompt, a size or `n` the model does not take, or an unknown `response_format` is a
 * 400 that says what is allowed.
 *
 * @example
 * validateImageRequest({ model: "reel-image-1", prompt: "A fox", n: 2 }, imageModels);
 */
export function validateImageRequest(
  body: Record<string, unknown>,
  models: readonly ImageModelInfo[],
): { request: ImageRequest; model: ImageModelInfo } {
  const id = body.model ?? models[0]?.id;
  const model = models.find((entry) => entry.id === id);
  if (!model) {
    throw new HttpError(
      400,
      `The model '${String(id)}' does not exist or is not an image model; use one of ${models.map((entry) => entry.id).join(", ") || "(none)"}.`,
      { param: "model", code: "model_not_found" },
    );
  }
  const prompt = body.prompt;
  if (typeof prompt !== "string" || prompt.trim() === "")
    throw bad("prompt must be a non-empty string.", "prompt", "missing_prompt");
  if (prompt.length > maxPromptCharacters)
    throw bad(`prompt is longer than ${maxPromptCharacters} characters.`, "prompt");
  const n = body.n === undefined || body.n === null ? 1 : Number(body.n);
  if (!Number.isInteger(n) || n < 1)
    throw bad(`n must be a whole number from 1; got ${JSON.stringify(body.n)}.`, "n");
  if (n > model.maxImages) {
    throw bad(
      `${model.id} makes at most ${model.maxImages} image${model.maxImages === 1 ? "" : "s"} per request; got n=${n}. Ask for fewer, or send several requests.`,
      "n",
    );
  }
  const askedSize =
    body.size === undefined || body.size === null || body.size === "auto" ? undefined : body.size;
  const size = askedSize ?? model.sizes[0];
  if (typeof size !== "string" || !model.sizes.includes(size)) {
    throw bad(
      `${model.id} does not draw size ${JSON.stringify(askedSize)}; use one of ${model.sizes.join(", ")} (or auto).`,
      "size",
    );
  }
  const format = body.response_format ?? "url";
  if (format !== "url" && format !== "b64_json")
    throw bad(
      `response_format must be url or b64_json; got ${JSON.stringify(format)}.`,
      "response_format",
    );
  const request: ImageRequest = { model: model.id, prompt, size, n, responseFormat: format };
  if (typeof body.quality === "string") request.quality = body.quality;
  return { request, model };
}
