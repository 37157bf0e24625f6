import {
  describeSeconds,
  describeSizes,
  findVideoRequestProblems,
  secondsAllowed,
  sizeAllowed,
  type VideoCreateParams,
  type VideoModelCatalog,
  type VideoModelSpec,
} from "@reelsmith/core/catalog";
import { videoModels } from "../catalog/video-models.js";
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
  /** Provider parameters (every field that is not one of the request's own). */
  params: Record<string, unknown>;
}

/** Longest prompt accepted, in characters. */
export const maxPromptLength = 10_000;

/** The request's own fields; every other field of the body is a provider parameter. */
const ownFields = new Set(["model", "prompt", "seconds", "size", "image_url", "input_reference"]);

/** Options of {@link validateVideoRequest}. */
export interface ValidateVideoOptions {
  /** The models served (default: the simulator's three). */
  catalog?: VideoModelCatalog;
  /** The body came as multipart form fields: numbers and booleans arrive as text. */
  multipart?: boolean;
  /** The name the reference image has in error messages (`input_reference` in the openai dialect). */
  imageField?: string;
}

/**
 * Check a video request against the model's spec; a 400 naming the field otherwise: model
 * served, prompt, `seconds` (range or list; default 4 when allowed), `size` (list or range;
 * default 1280x720 when allowed), the reference image (refused by a model that takes none),
 * and every provider parameter when the model declares its parameters.
 *
 * @example
 * validateVideoRequest({ model: "reel-video-1", prompt: "A harbour at dawn", seconds: "4" });
 */
export function validateVideoRequest(
  body: Record<string, unknown>,
  options: ValidateVideoOptions = {},
): VideoRequest {
  const catalog = options.catalog ?? videoModels;
  const imageField = options.imageField ?? "image_url";
  const { model, prompt } = body;
  if (model === undefined)
    throw HttpError.badRequest(
      "Missing required parameter: 'model'.",
      "model",
      "missing_required_parameter",
    );
  if (typeof model !== "string") throw HttpError.badRequest("`model` must be a string.", "model");
  const spec = catalog.find((entry) => entry.id === model);
  if (!spec) {
    throw HttpError.badRequest(
      `Unknown video model '${model}'. Available: ${catalog.map((entry) => entry.id).join(", ")}.`,
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
  const seconds = checkSeconds(body.seconds, spec);
  const size = checkSize(body.size, spec);
  const [width = 0, height = 0] = size.split("x").map(Number);
  const params = checkParams(body, spec, options.multipart === true);
  const request: VideoRequest = { model, prompt, seconds, size, width, height, params };
  const imageUrl = body.image_url;
  if (imageUrl !== undefined && imageUrl !== null) {
    if (spec.image === false) {
      throw HttpError.badRequest(
        `${model} does not take a reference image; remove \`${imageField}\`.`,
        imageField,
        "image_not_supported",
      );
    }
    checkImageUrl(imageUrl, imageField);
    request.imageUrl = imageUrl as string;
  }
  return request;
}

function checkSeconds(raw: unknown, spec: VideoModelSpec): number {
  const fallback =
    !spec.seconds || secondsAllowed(spec.seconds, 4)
      ? 4
      : Array.isArray(spec.seconds)
        ? (spec.seconds[0] ?? 4)
        : (spec.seconds as { min: number }).min;
  const value = raw ?? String(fallback);
  const seconds = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  const whole = typeof seconds === "number" && Number.isInteger(seconds) && seconds >= 1;
  if (!whole || (spec.seconds && !secondsAllowed(spec.seconds, seconds))) {
    const allowed = !spec.seconds
      ? "a whole number from 1 up"
      : Array.isArray(spec.seconds)
        ? `one of ${describeSeconds(spec.seconds)}`
        : `a whole number from ${(spec.seconds as { min: number }).min} to ${(spec.seconds as { max: number }).max}`;
    throw HttpError.badRequest(
      `\`seconds\` must be ${allowed} for ${spec.id}; got ${JSON.stringify(value)}.`,
      "seconds",
    );
  }
  return seconds as number;
}

function checkSize(raw: unknown, spec: VideoModelSpec): string {
  let fallback = "1280x720";
  if (spec.sizes && !sizeAllowed(spec.sizes, fallback)) {
    fallback = Array.isArray(spec.sizes)
      ? (spec.sizes[0] ?? fallback)
      : `${(spec.sizes as { width: { min: number } }).width.min}x${(spec.sizes as { height: { min: number } }).height.min}`;
  }
  const size = raw ?? fallback;
  const shaped = typeof size === "string" && /^\d+x\d+$/.test(size);
  if (!shaped || (spec.sizes && !sizeAllowed(spec.sizes, size))) {
    const allowed = spec.sizes
      ? Array.isArray(spec.sizes)
        ? `one of ${(spec.sizes as readonly string[]).join(", ")}`
        : describeSizes(spec.sizes)
      : "<width>x<height>";
    throw HttpError.badRequest(
      `\`size\` must be ${allowed} for ${spec.id}; got ${JSON.stringify(size)}.`,
      "size",
    );
  }
  return size as string;
}

/** The provider parameters of the body, checked against the model's declared ones (if declared). */
function checkParams(
  body: Record<string, unknown>,
  spec: VideoModelSpec,
  multipart: boolean,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (ownFields.has(name) || value === undefined || value === null) continue;
    params[name] = multipart ? fromText(value, spec.params?.[name]?.type) : value;
  }
  if (!spec.params) return params;
  const problems = findVideoRequestProblems(
    { model: spec.id, prompt: "-", params } as VideoCreateParams,
    [spec],
  ).filter((problem) => problem.field.startsWith("params."));
  const first = problems[0];
  if (first) {
    throw HttpError.badRequest(
      `${first.message}.`,
      first.field.slice("params.".length),
      first.message.includes("is not a parameter") ? "unknown_parameter" : "invalid_value",
    );
  }
  return params;
}

/** A multipart text field read as the declared type (`"42"` → 42, `"true"` → true). */
function fromText(value: unknown, type: string | undefined): unknown {
  if (typeof value !== "string") return value;
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(value.trim()))
    return Number(value);
  if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}

function checkImageUrl(imageUrl: unknown, field: string): void {
  if (typeof imageUrl !== "string")
    throw HttpError.badRequest(`\`${field}\` must be a string URL.`, field);
  if (imageUrl.startsWith("data:")) {
    const decoded = parseDataUri(imageUrl);
    if (!decoded?.mime.startsWith("image/")) {
      throw HttpError.badRequest(
        `\`${field}\` must be an http(s) URL or a base64 data URI of an image (data:image/png;base64,...).`,
        field,
      );
    }
  } else if (!isHttpUrl(imageUrl)) {
    throw HttpError.badRequest(
      `\`${field}\` must be an http(s) URL or a base64 data URI of an image.`,
      field,
    );
  }
}
