import { InvalidRequestError, type RequestProblem } from "../../errors/invalid-request-error.js";
import { imageAsURL } from "../../images/image-input.js";
import type { VideoCreateParams, VideoModelSpec } from "../../videos/types.js";
import { isImageParam } from "../reference/index.js";
import { acceptedAspectRatio } from "../request-checks.js";
import { falApp } from "./fal-endpoint.js";

/** The aspect ratios fal's video endpoints take (`aspect_ratio`), by their reduced `W:H`. */
export const falAspectRatios: readonly string[] = [
  "16:9",
  "9:16",
  "1:1",
  "4:3",
  "3:4",
  "21:9",
  "9:21",
  "3:2",
  "2:3",
];

/** The fields a request's own values are mapped to; a provider param may not set them too. */
const mappedFields = {
  prompt: "prompt",
  seconds: "duration",
  size: "aspect_ratio",
  image: "image_url",
};

/**
 * The aspect ratio of a `"WxH"` size as fal writes it (`1280x720` → `16:9`), or undefined
 * when the size is not `WxH` or its ratio is not one fal's endpoints take.
 *
 * @example
 * ```ts
 * falAspectRatio("720x1280"); // "9:16"
 * ```
 */
export function falAspectRatio(size: string): string | undefined {
  return acceptedAspectRatio(size, falAspectRatios);
}

/**
 * What is wrong with a request for a fal endpoint, before anything is sent: the endpoint id,
 * the prompt, `seconds` (a whole number, sent as `duration`), `size` (sent as `aspect_ratio`,
 * so its ratio must be one fal takes), the image (a URL or data URI, sent as `image_url`),
 * and params that would set a field the request already sets.
 *
 * @example
 * ```ts
 * falVideoProblems({ model: "fal-ai/veo3", prompt: "a fox", size: "1000x777" });
 * // [{ field: "size", message: "`size: 1000x777` has no aspect ratio fal's video endpoints take; …" }]
 * ```
 */
export function falVideoProblems(params: VideoCreateParams): RequestProblem[] {
  const problems: RequestProblem[] = [];
  try {
    falApp(params.model);
  } catch (error) {
    if (!InvalidRequestError.isInstance(error)) throw error;
    problems.push(...error.problems);
  }
  if (typeof params.prompt !== "string" || params.prompt.trim() === "") {
    problems.push({ field: "prompt", message: "`prompt` must be a non-empty string" });
  }
  if (params.seconds !== undefined) {
    const seconds = Number(String(params.seconds).trim());
    if (!Number.isInteger(seconds) || seconds < 1) {
      problems.push({
        field: "seconds",
        message: `\`seconds: ${String(params.seconds)}\` must be a whole number of seconds from 1 (fal's \`duration\`)`,
      });
    }
  }
  if (params.size !== undefined && falAspectRatio(params.size) === undefined) {
    problems.push({
      field: "size",
      message: `\`size: ${params.size}\` has no aspect ratio fal's video endpoints take; use a size of ratio ${falAspectRatios.join(", ")} (e.g. 1280x720 for 16:9), or leave size out and set params.aspect_ratio`,
    });
  }
  for (const [own, field] of Object.entries(mappedFields)) {
    const given = (params as unknown as Record<string, unknown>)[own];
    const imageGiven = own === "image" && params.image_url !== undefined;
    if ((given !== undefined || imageGiven) && params.params?.[field] !== undefined) {
      problems.push({
        field: `params.${field}`,
        message: `\`params.${field}\` sets what \`${own}\` already sets (fal's \`${field}\`): give one of them`,
      });
    }
  }
  return problems;
}

/**
 * A checked request as the endpoint's own input: `prompt`, `duration` (whole seconds as a
 * string, as fal's Kling, Seedance and Wan endpoints take it), `aspect_ratio` from `size`,
 * `image_url` (a URL or data URI), and the model's params as they are (image params as URLs).
 *
 * @example
 * ```ts
 * falVideoInput({ model: "fal-ai/kling-video/v2.1/standard/text-to-video", prompt: "a fox", seconds: 5, size: "1280x720" });
 * // { prompt: "a fox", duration: "5", aspect_ratio: "16:9" }
 * ```
 */
export function falVideoInput(
  params: VideoCreateParams,
  spec?: VideoModelSpec,
): Record<string, unknown> {
  const input: Record<string, unknown> = { prompt: params.prompt };
  if (params.seconds !== undefined) input.duration = String(Number(String(params.seconds).trim()));
  if (params.size !== undefined) input.aspect_ratio = falAspectRatio(params.size);
  const image = params.image ?? params.image_url;
  if (image !== undefined) input.image_url = imageAsURL(image, "image");
  for (const [name, value] of Object.entries(params.params ?? {})) {
    input[name] = isImageParam(spec?.params, name, value)
      ? imageAsURL(value, `params.${name}`)
      : value;
  }
  return input;
}
