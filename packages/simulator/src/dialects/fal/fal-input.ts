import { acceptedAspectRatio, type VideoModelSpec } from "@reelsmith/core/catalog";
import { HttpError } from "../../errors/http-error.js";

/** A size at 720p for each aspect ratio fal's video endpoints take. */
const sizeOfRatio: Readonly<Record<string, string>> = {
  "16:9": "1280x720",
  "9:16": "720x1280",
  "1:1": "720x720",
  "4:3": "960x720",
  "3:4": "720x960",
  "21:9": "1680x720",
  "9:21": "720x1680",
  "3:2": "1080x720",
  "2:3": "720x1080",
};

/** The size a clip of `aspect_ratio` is rendered at: one of the model's sizes of that ratio, else 720p. */
function sizeFor(ratio: unknown, spec: VideoModelSpec | undefined): string | undefined {
  if (ratio === undefined || ratio === null) return undefined;
  const fallback = typeof ratio === "string" ? sizeOfRatio[ratio] : undefined;
  if (fallback === undefined) {
    throw HttpError.badRequest(
      `aspect_ratio must be one of ${Object.keys(sizeOfRatio).join(", ")}; got ${JSON.stringify(ratio)}.`,
      "aspect_ratio",
      "literal_error",
    );
  }
  const sizes = spec?.sizes;
  if (Array.isArray(sizes)) {
    // A listed size of the ratio, as core reads sizes (854x480 is 16:9).
    const listed = (sizes as readonly string[]).find(
      (size) => acceptedAspectRatio(size, [ratio as string]) === ratio,
    );
    if (!listed) {
      throw HttpError.badRequest(
        `aspect_ratio ${String(ratio)} is not served by ${spec?.id}; its sizes are ${sizes.join(", ")}.`,
        "aspect_ratio",
        "literal_error",
      );
    }
    return listed;
  }
  // A range of sizes: the 720p size of the ratio, checked against the range like any size.
  return fallback;
}

/** fal's `duration`: `"5"`, `5` or `"8s"` (as Veo's endpoints write it), as whole seconds. */
function secondsOf(duration: unknown): unknown {
  if (typeof duration === "string" && /^\d+s$/.test(duration)) return duration.slice(0, -1);
  if (typeof duration === "number") return String(duration);
  return duration;
}

/** The request's own fields in fal's input; every other field is a model parameter. */
const falOwnFields = new Set(["prompt", "duration", "aspect_ratio", "image_url"]);

/**
 * An endpoint's input as the body the simulator's video check reads: the endpoint id as the
 * model, `duration` as seconds, `aspect_ratio` as a size of that ratio, `image_url` as it is,
 * the other fields as parameters.
 *
 * @example
 * falInputAsVideoBody("fal-ai/kling-video/v2.1/standard/text-to-video", { prompt: "a fox", duration: "5", aspect_ratio: "16:9" }, spec);
 * // { model: "fal-ai/kling-video/…", prompt: "a fox", seconds: "5", size: "1280x720" }
 */
export function falInputAsVideoBody(
  endpoint: string,
  input: Record<string, unknown>,
  spec: VideoModelSpec | undefined,
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: endpoint, prompt: input.prompt };
  const seconds = secondsOf(input.duration);
  if (seconds !== undefined) body.seconds = seconds;
  const size = sizeFor(input.aspect_ratio, spec);
  if (size !== undefined) body.size = size;
  if (input.image_url !== undefined) body.image_url = input.image_url;
  for (const [name, value] of Object.entries(input)) {
    if (!falOwnFields.has(name)) body[name] = value;
  }
  return body;
}

/** The simulator's names of the request's fields as fal's input names them (for `loc`). */
export const falFieldNames: Readonly<Record<string, string>> = {
  seconds: "duration",
  size: "aspect_ratio",
};
