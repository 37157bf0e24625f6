import { findVideoModel, videoModels } from "../catalog/video-models.js";
import { HttpError } from "../errors/http-error.js";
import { isHttpUrl, parseDataUri } from "../util/data-uri.js";

/** A checked `POST /v1/videos` body. */
export interface VideoRequest {
  model: string;
  prompt: string;
  seconds: number;
  size: string;
  width: number;
  height: number;
  imageUrl?: string;
}

/** Longest prompt accepted, in characters. */
export const maxPromptLength = 10_000;

/**
 * Check a video request against the model's limits (spec 2.3); a 400 naming the field otherwise.
 * `seconds` defaults to 4 and `size` to 1280x720 (all three models offer it).
 *
 * @example
 * validateVideoRequest({ model: "reel-video-1", prompt: "A harbour at dawn", seconds: "4" });
 */
export function validateVideoRequest(body: Record<string, unknown>): VideoRequest {
  const { model, prompt } = body;
  if (model === undefined)
    throw HttpError.badRequest(
      "Missing required parameter: 'model'.",
      "model",
      "missing_required_parameter",
    );
  if (typeof model !== "string") throw HttpError.badRequest("`model` must be a string.", "model");
  const limits = findVideoModel(model);
  if (!limits) {
    throw HttpError.badRequest(
      `Unknown video model '${model}'. Available: ${videoModels.map((entry) => entry.id).join(", ")}.`,
      "model",
      "model_not_found",
    );
  }
  if (prompt === undefined)
    throw HttpError.badRequest(
      "Missing required parameter: 'prompt'.",
      "prompt",
      "missing_required_parameter",
    );
  if (typeof prompt !== "string" || prompt.trim() === "")
    throw HttpError.badRequest("`prompt` must be a non-empty string.", "prompt");
  if (prompt.length > maxPromptLength) {
    throw HttpError.badRequest(
      `\`prompt\` must be at most ${maxPromptLength} characters; got ${prompt.length}.`,
      "prompt",
    );
  }

  const rawSeconds = body.seconds ?? "4";
  const seconds =
    typeof rawSeconds === "string" && /^\d+$/.test(rawSeconds) ? Number(rawSeconds) : rawSeconds;
  if (
    typeof seconds !== "number" ||
    !Number.isInteger(seconds) ||
    seconds < 1 ||
    seconds > limits.maxSeconds
  ) {
    throw HttpError.badRequest(
      `\`seconds\` must be a whole number from 1 to ${limits.maxSeconds} for ${model}; got ${JSON.stringify(rawSeconds)}.`,
      "seconds",
    );
  }

  const size = body.size ?? (limits.sizes.includes("1280x720") ? "1280x720" : limits.sizes[0]);
  if (typeof size !== "string" || !limits.sizes.includes(size)) {
    throw HttpError.badRequest(
      `\`size\` must be one of ${limits.sizes.join(", ")} for ${model}; got ${JSON.stringify(size)}.`,
      "size",
    );
  }
  const [width = 0, height = 0] = size.split("x").map(Number);

  const request: VideoRequest = { model, prompt, seconds, size, width, height };
  const imageUrl = body.image_url;
  if (imageUrl !== undefined && imageUrl !== null) {
    if (typeof imageUrl !== "string")
      throw HttpError.badRequest("`image_url` must be a string URL.", "image_url");
    if (imageUrl.startsWith("data:")) {
      const decoded = parseDataUri(imageUrl);
      if (!decoded?.mime.startsWith("image/")) {
        throw HttpError.badRequest(
          "`image_url` must be an http(s) URL or a base64 data URI of an image (data:image/png;base64,...).",
          "image_url",
        );
      }
    } else if (!isHttpUrl(imageUrl)) {
      throw HttpError.badRequest(
        "`image_url` must be an http(s) URL or a base64 data URI of an image.",
        "image_url",
      );
    }
    request.imageUrl = imageUrl;
  }
  return request;
}
