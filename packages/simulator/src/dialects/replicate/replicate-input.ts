import { acceptedAspectRatio, type VideoModelSpec } from "@reelsmith/core/catalog";
import { HttpError } from "../../errors/http-error.js";

/** The fields Replicate's video models take the reference image in. */
export const replicateImageFields = ["start_image", "image", "first_frame_image"] as const;

/** The request's own fields in a model's input; every other field is a model parameter. */
const ownFields = new Set([
  "prompt",
  "duration",
  "aspect_ratio",
  "resolution",
  ...replicateImageFields,
]);

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function ratioOf(width: number, height: number): string {
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
}

/** `"720p"` as the short side in pixels, else a 422 naming `resolution`. */
function shortSide(resolution: unknown): number {
  const match = typeof resolution === "string" ? /^(\d+)p$/.exec(resolution) : null;
  if (!match) {
    throw HttpError.badRequest(
      `resolution must be written like 720p; got ${JSON.stringify(resolution)}.`,
      "resolution",
      "enum",
    );
  }
  return Number(match[1]);
}

/** `"16:9"` as [16, 9], else a 422 naming `aspect_ratio`. */
function ratioParts(ratio: unknown): [number, number] {
  const match = typeof ratio === "string" ? /^(\d+):(\d+)$/.exec(ratio) : null;
  if (!match || Number(match[1]) === 0 || Number(match[2]) === 0) {
    throw HttpError.badRequest(
      `aspect_ratio must be written like 16:9; got ${JSON.stringify(ratio)}.`,
      "aspect_ratio",
      "enum",
    );
  }
  return [Number(match[1]), Number(match[2])];
}

/**
 * The size a clip of `aspect_ratio` and/or `resolution` is rendered at: the model's listed
 * size of that ratio and short side, else the size they give (720p and 16:9 by default).
 */
function sizeFor(
  input: Record<string, unknown>,
  spec: VideoModelSpec | undefined,
): string | undefined {
  const { aspect_ratio: ratio, resolution } = input;
  if (ratio === undefined && resolution === undefined) return undefined;
  const parts = ratio === undefined ? undefined : ratioParts(ratio);
  const side = resolution === undefined ? undefined : shortSide(resolution);
  const sizes = spec?.sizes;
  if (Array.isArray(sizes)) {
    const listed = (sizes as readonly string[]).find((size) => {
      const [width = 0, height = 0] = size.split("x").map(Number);
      // The listed size of the ratio, as core reads sizes (854x480 is 16:9).
      if (parts && !acceptedAspectRatio(size, [ratioOf(parts[0], parts[1])])) return false;
      return side === undefined || Math.min(width, height) === side;
    });
    if (!listed) {
      const field = side !== undefined && parts === undefined ? "resolution" : "aspect_ratio";
      throw HttpError.badRequest(
        `${[ratio, resolution].filter((value) => value !== undefined).join(" at ")} is not served by ${spec?.id}; its sizes are ${sizes.join(", ")}.`,
        field,
        "enum",
      );
    }
    return listed;
  }
  const [w, h] = parts ?? [16, 9];
  const short = side ?? 720;
  const long = Math.round((short * Math.max(w, h)) / Math.min(w, h) / 2) * 2;
  return w >= h ? `${long}x${short}` : `${short}x${long}`;
}

/**
 * A prediction's input as the body the simulator's video check reads: the model id as the
 * model, `duration` as seconds, `aspect_ratio` and `resolution` as a size, the reference
 * image from whichever of Replicate's image fields holds it, the other fields as parameters.
 *
 * @example
 * replicateInputAsVideoBody("kwaivgi/kling-v2.1", { prompt: "a fox", duration: 5, aspect_ratio: "16:9" }, spec);
 * // { model: "kwaivgi/kling-v2.1", prompt: "a fox", seconds: 5, size: "1280x720" }
 */
export function replicateInputAsVideoBody(
  model: string,
  input: Record<string, unknown>,
  spec: VideoModelSpec | undefined,
): Record<string, unknown> {
  const body: Record<string, unknown> = { model, prompt: input.prompt };
  if (input.duration !== undefined) body.seconds = input.duration;
  const size = sizeFor(input, spec);
  if (size !== undefined) body.size = size;
  const image = replicateImageFields.map((field) => input[field]).find((value) => value != null);
  if (image !== undefined) body.image_url = image;
  for (const [name, value] of Object.entries(input)) {
    if (!ownFields.has(name)) body[name] = value;
  }
  return body;
}

/** The name a field of the simulator's check has in the prediction's input. */
export function replicateFieldName(param: string, input: Record<string, unknown>): string {
  if (param === "seconds") return "duration";
  if (param === "size") return input.aspect_ratio === undefined ? "resolution" : "aspect_ratio";
  if (param === "image_url") {
    return replicateImageFields.find((field) => input[field] != null) ?? "image";
  }
  return param;
}
