import { InvalidRequestError, type RequestProblem } from "../../errors/invalid-request-error.js";
import { imageAsURL } from "../../images/image-input.js";
import type { VideoCreateParams, VideoModelSpec } from "../../videos/types.js";
import { isImageParam } from "../reference/index.js";
import { acceptedAspectRatio, sizeDimensions } from "../request-checks.js";
import { replicateModel } from "./replicate-model.js";

/**
 * How a family of Replicate video models names the request's fields: `duration` (or none,
 * for models whose clips have one length), `aspect_ratio` and/or `resolution` for the size,
 * and the reference image's field.
 */
export interface ReplicateVideoFamily {
  /** Model ids it covers, by prefix (`google/veo`); the last family covers the rest. */
  prefix: string;
  /** The field of `seconds`; undefined: the model takes no length (its clips have one). */
  duration: "duration" | undefined;
  /** The lengths it takes, when its schema lists them (else any whole number, as the catalog says). */
  durations?: readonly number[];
  /** The aspect ratios it takes as `aspect_ratio`; undefined: it takes none. */
  aspectRatios?: readonly string[];
  /** The resolutions it takes as `resolution` (`720p`: the short side); undefined: none. */
  resolutions?: readonly string[];
  /** The field of the reference image (a URL or a data URI). */
  image: "start_image" | "image" | "first_frame_image";
}

const wideRatios = ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9", "9:21"];

/** The families of the video models Replicate hosts, by their input schemas (most specific first). */
export const replicateVideoFamilies: readonly ReplicateVideoFamily[] = [
  // kwaivgi/kling-v2.1, kling-v1.6-standard, …: duration 5|10, aspect_ratio, start_image.
  {
    prefix: "kwaivgi/",
    duration: "duration",
    durations: [5, 10],
    aspectRatios: ["16:9", "9:16", "1:1"],
    image: "start_image",
  },
  // google/veo-3, veo-3-fast, veo-3.1: duration, aspect_ratio, resolution, image.
  {
    prefix: "google/veo",
    duration: "duration",
    aspectRatios: ["16:9", "9:16"],
    resolutions: ["720p", "1080p"],
    image: "image",
  },
  // minimax/video-01 (and -live, -director): 6 s clips at 720p, first_frame_image.
  { prefix: "minimax/video-01", duration: undefined, image: "first_frame_image" },
  // minimax/hailuo-02: duration 6|10, resolution, first_frame_image.
  {
    prefix: "minimax/",
    duration: "duration",
    durations: [6, 10],
    resolutions: ["512p", "768p", "1080p"],
    image: "first_frame_image",
  },
  // bytedance/seedance-1-pro, seedance-1-lite: duration, aspect_ratio, resolution, image.
  {
    prefix: "bytedance/seedance",
    duration: "duration",
    aspectRatios: wideRatios,
    resolutions: ["480p", "720p", "1080p"],
    image: "image",
  },
  // Any other model: the most common names.
  { prefix: "", duration: "duration", aspectRatios: wideRatios, image: "image" },
];

/** The family whose input names a model's fields. */
export function replicateVideoFamily(model: string): ReplicateVideoFamily {
  const path = model.split(":")[0] ?? model;
  const family = replicateVideoFamilies.find((entry) => path.startsWith(entry.prefix));
  return family ?? (replicateVideoFamilies.at(-1) as ReplicateVideoFamily);
}

/**
 * What a `"WxH"` size is in a family's fields: `aspect_ratio` (reduced, `1280x720` → `16:9`)
 * and `resolution` (the short side, `720p`), each where the family takes it; undefined when
 * the size is not `WxH` or the family does not take its ratio or resolution.
 *
 * @example
 * ```ts
 * replicateSizeFields("720x1280", replicateVideoFamily("google/veo-3-fast")); // { aspect_ratio: "9:16", resolution: "720p" }
 * ```
 */
export function replicateSizeFields(
  size: string,
  family: ReplicateVideoFamily,
): { aspect_ratio?: string; resolution?: string } | undefined {
  const found = sizeDimensions(size);
  if (!found || (!family.aspectRatios && !family.resolutions)) return undefined;
  const fields: { aspect_ratio?: string; resolution?: string } = {};
  if (family.aspectRatios) {
    const ratio = acceptedAspectRatio(size, family.aspectRatios);
    if (!ratio) return undefined;
    fields.aspect_ratio = ratio;
  }
  if (family.resolutions) {
    const resolution = `${Math.min(found.width, found.height)}p`;
    if (!family.resolutions.includes(resolution)) return undefined;
    fields.resolution = resolution;
  }
  return fields;
}

/** The input fields the request's own values are mapped to in a family. */
function mappedFields(family: ReplicateVideoFamily): Record<string, string[]> {
  const size = [
    ...(family.aspectRatios ? ["aspect_ratio"] : []),
    ...(family.resolutions ? ["resolution"] : []),
  ];
  return {
    prompt: ["prompt"],
    seconds: family.duration ? [family.duration] : [],
    size,
    image: [family.image],
  };
}

function describeSizes(family: ReplicateVideoFamily): string {
  const parts = [
    ...(family.aspectRatios ? [`an aspect ratio of ${family.aspectRatios.join(", ")}`] : []),
    ...(family.resolutions ? [`a short side of ${family.resolutions.join(", ")}`] : []),
  ];
  return parts.join(" and ");
}

/**
 * What is wrong with a request for a Replicate video model, before anything is sent: the
 * model id, the prompt, `seconds` (a whole number, sent as `duration`, refused by models of
 * one length), `size` (sent as `aspect_ratio` and/or `resolution`, so the family must take
 * it), and params that would set a field the request already sets.
 *
 * @example
 * ```ts
 * replicateVideoProblems({ model: "minimax/video-01", prompt: "a fox", seconds: 10 });
 * // [{ field: "seconds", message: "minimax/video-01 takes no `duration` on Replicate …" }]
 * ```
 */
export function replicateVideoProblems(params: VideoCreateParams): RequestProblem[] {
  const problems: RequestProblem[] = [];
  try {
    replicateModel(params.model);
  } catch (error) {
    if (!InvalidRequestError.isInstance(error)) throw error;
    problems.push(...error.problems);
  }
  const family = replicateVideoFamily(String(params.model));
  if (typeof params.prompt !== "string" || params.prompt.trim() === "") {
    problems.push({ field: "prompt", message: "`prompt` must be a non-empty string" });
  }
  if (params.seconds !== undefined) {
    const seconds = Number(String(params.seconds).trim());
    if (!family.duration) {
      problems.push({
        field: "seconds",
        message: `${params.model} takes no \`duration\` on Replicate (its clips have one length): leave \`seconds\` out`,
      });
    } else if (!Number.isInteger(seconds) || seconds < 1) {
      problems.push({
        field: "seconds",
        message: `\`seconds: ${String(params.seconds)}\` must be a whole number of seconds from 1 (Replicate's \`duration\`)`,
      });
    } else if (family.durations && !family.durations.includes(seconds)) {
      problems.push({
        field: "seconds",
        message: `\`seconds: ${String(params.seconds)}\` is not a length ${params.model} takes on Replicate: use ${family.durations.join(" or ")}`,
      });
    }
  }
  if (params.size !== undefined && replicateSizeFields(params.size, family) === undefined) {
    const takes = describeSizes(family);
    problems.push({
      field: "size",
      message: takes
        ? `\`size: ${params.size}\` is not a size ${params.model} takes on Replicate: give a WxH size with ${takes} (e.g. 1280x720), or leave size out`
        : `${params.model} takes no size on Replicate: leave \`size\` out`,
    });
  }
  for (const [own, fields] of Object.entries(mappedFields(family))) {
    const given = (params as unknown as Record<string, unknown>)[own];
    const imageGiven = own === "image" && params.image_url !== undefined;
    if (given === undefined && !imageGiven) continue;
    for (const field of fields) {
      if (params.params?.[field] === undefined) continue;
      problems.push({
        field: `params.${field}`,
        message: `\`params.${field}\` sets what \`${own}\` already sets (Replicate's \`${field}\`): give one of them`,
      });
    }
  }
  return problems;
}

/**
 * A checked request as the model's own `input`: `prompt`, `duration` (whole seconds, a
 * number as Replicate's schemas take it), the size as `aspect_ratio` and/or `resolution`,
 * the reference image in the family's field (a URL, or a data URI for local files), and the
 * model's params as they are (image params as URLs or data URIs).
 *
 * @example
 * ```ts
 * replicateVideoInput({ model: "kwaivgi/kling-v2.1", prompt: "a fox", seconds: 5, image: "fox.png" });
 * // { prompt: "a fox", duration: 5, start_image: "data:image/png;base64,…" }
 * ```
 */
export function replicateVideoInput(
  params: VideoCreateParams,
  spec?: VideoModelSpec,
): Record<string, unknown> {
  const family = replicateVideoFamily(params.model);
  const input: Record<string, unknown> = { prompt: params.prompt };
  if (params.seconds !== undefined && family.duration) {
    input[family.duration] = Number(String(params.seconds).trim());
  }
  if (params.size !== undefined) Object.assign(input, replicateSizeFields(params.size, family));
  const image = params.image ?? params.image_url;
  if (image !== undefined) input[family.image] = imageAsURL(image, "image");
  for (const [name, value] of Object.entries(params.params ?? {})) {
    input[name] = isImageParam(spec?.params, name, value)
      ? imageAsURL(value, `params.${name}`)
      : value;
  }
  return input;
}
