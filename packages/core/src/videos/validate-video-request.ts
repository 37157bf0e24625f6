import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { referenceVideoModels } from "./catalog.js";
import type { VideoCreateParams, VideoModelCatalog } from "./types.js";

/**
 * Checks a video request against a model catalog before anything is sent: `model` and
 * `prompt` present, `seconds` a whole number from 1 to the model's maximum, `size` one of
 * the model's sizes. Throws `InvalidRequestError` naming the field and the model's limits.
 * A model missing from the catalog is not checked beyond the basic shapes.
 *
 * @example
 * ```ts
 * validateVideoRequest({ model: "reel-video-1", prompt: "a fox", seconds: 12 });
 * // throws InvalidRequestError: seconds 12 is out of range for reel-video-1 (1 to 10 seconds)
 * ```
 */
export function validateVideoRequest(
  params: VideoCreateParams,
  catalog: VideoModelCatalog = referenceVideoModels,
): void {
  if (params === null || typeof params !== "object") {
    throw new InvalidRequestError("params", "Expected the video request to be an object.");
  }
  if (typeof params.model !== "string" || params.model.trim() === "") {
    throw new InvalidRequestError("model", "Expected `model` to be a non-empty string.");
  }
  if (typeof params.prompt !== "string" || params.prompt.trim() === "") {
    throw new InvalidRequestError("prompt", "Expected `prompt` to be a non-empty string.");
  }
  const limits = catalog.find((model) => model.id === params.model);
  if (params.seconds !== undefined) {
    const text = String(params.seconds).trim();
    const seconds = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    const range = limits ? ` (${limits.id}: 1 to ${limits.maxSeconds} seconds)` : "";
    if (!Number.isInteger(seconds) || seconds < 1) {
      throw new InvalidRequestError(
        "seconds",
        `Expected \`seconds\` to be a whole number of seconds >= 1, got ${JSON.stringify(params.seconds)}${range}.`,
      );
    }
    if (limits && seconds > limits.maxSeconds) {
      throw new InvalidRequestError(
        "seconds",
        `seconds ${seconds} is out of range for ${limits.id}: at most ${limits.maxSeconds} seconds${range}.`,
      );
    }
  }
  if (params.size !== undefined) {
    if (typeof params.size !== "string" || !/^\d+x\d+$/.test(params.size)) {
      throw new InvalidRequestError(
        "size",
        `Expected \`size\` to be "<width>x<height>", got ${JSON.stringify(params.size)}.`,
      );
    }
    if (limits && !limits.sizes.includes(params.size)) {
      throw new InvalidRequestError(
        "size",
        `size ${params.size} is not supported by ${limits.id} (supported: ${limits.sizes.join(", ")}).`,
      );
    }
  }
  if (
    params.image_url !== undefined &&
    (typeof params.image_url !== "string" || !/^(https?:|data:)/.test(params.image_url))
  ) {
    throw new InvalidRequestError(
      "image_url",
      "Expected `image_url` to be an http(s) URL or a data: URI.",
    );
  }
}
