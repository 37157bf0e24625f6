import type { RequestProblem } from "../../errors/invalid-request-error.js";
import { imageAsURL } from "../../images/image-input.js";
import type { VideoCreateParams } from "../../videos/types.js";
import { acceptedAspectRatio } from "../request-checks.js";

/** The aspect ratios Kling's video models take. */
export const klingAspectRatios: readonly string[] = ["16:9", "9:16", "1:1"];

/** The durations Kling's video models take, in seconds (sent as strings). */
export const klingDurations: readonly string[] = ["5", "10"];

/** Kling's two kinds of video task, each a path of its own. */
export type KlingAction = "text2video" | "image2video";

/** Fields the request's own values (or reelsmith) set; a provider param may not set them too. */
const ownFields: Readonly<Record<string, string>> = {
  model_name: "model",
  prompt: "prompt",
  duration: "seconds",
  aspect_ratio: "size",
  image: "image",
  external_task_id: "the run's idempotency key",
  callback_url: "reelsmith, which polls",
};

/**
 * The aspect ratio of a `"WxH"` size as Kling writes it (`1280x720` → `16:9`), or undefined
 * when it is not one Kling takes.
 *
 * @example
 * ```ts
 * klingAspectRatio("720x1280"); // "9:16"
 * ```
 */
export function klingAspectRatio(size: string): string | undefined {
  return acceptedAspectRatio(size, klingAspectRatios);
}

/** `text2video`, or `image2video` when the request has a reference image. */
export function klingAction(params: VideoCreateParams): KlingAction {
  return params.image !== undefined || params.image_url !== undefined
    ? "image2video"
    : "text2video";
}

/**
 * What is wrong with a request for Kling, before anything is sent: the model (`kling-…`), the
 * prompt (at most 2500 characters), `seconds` (5 or 10), `size` (of ratio 16:9, 9:16 or 1:1),
 * `params.mode` (`std` or `pro`), `params.cfg_scale` (0 to 1), and params that would set a
 * field the request or reelsmith sets.
 *
 * @example
 * ```ts
 * klingVideoProblems({ model: "kling-v2-1", prompt: "a fox", seconds: 7 });
 * // [{ field: "seconds", message: "`seconds: 7` is not a duration Kling takes: give 5 or 10" }]
 * ```
 */
export function klingVideoProblems(params: VideoCreateParams): RequestProblem[] {
  const problems: RequestProblem[] = [];
  if (typeof params.model !== "string" || !/^kling-[\w.-]+$/.test(params.model)) {
    problems.push({
      field: "model",
      message: `\`model: ${JSON.stringify(params.model)}\` is not a Kling model name: write it as Kling's API names it, e.g. kling-v2-1, kling-v2-master or kling-v1-6`,
    });
  }
  if (typeof params.prompt !== "string" || params.prompt.trim() === "") {
    problems.push({ field: "prompt", message: "`prompt` must be a non-empty string" });
  } else if (params.prompt.length > 2500) {
    problems.push({
      field: "prompt",
      message: `\`prompt\` has ${params.prompt.length} characters; Kling takes at most 2500`,
    });
  }
  if (params.seconds !== undefined) {
    const seconds = String(params.seconds).trim();
    if (!klingDurations.includes(seconds)) {
      problems.push({
        field: "seconds",
        message: `\`seconds: ${String(params.seconds)}\` is not a duration Kling takes: give 5 or 10`,
      });
    }
  }
  if (params.size !== undefined && klingAspectRatio(params.size) === undefined) {
    problems.push({
      field: "size",
      message: `\`size: ${params.size}\` has no aspect ratio Kling takes; use a size of ratio 16:9, 9:16 or 1:1 (e.g. 1280x720, 720x1280, 720x720)`,
    });
  }
  const extra = params.params ?? {};
  if (extra.mode !== undefined && extra.mode !== "std" && extra.mode !== "pro") {
    problems.push({
      field: "params.mode",
      message: `\`params.mode: ${JSON.stringify(extra.mode)}\` must be std or pro`,
    });
  }
  const cfg = extra.cfg_scale;
  if (cfg !== undefined && (typeof cfg !== "number" || cfg < 0 || cfg > 1)) {
    problems.push({
      field: "params.cfg_scale",
      message: `\`params.cfg_scale: ${JSON.stringify(cfg)}\` must be a number from 0 to 1`,
    });
  }
  for (const [field, setBy] of Object.entries(ownFields)) {
    if (extra[field] !== undefined) {
      problems.push({
        field: `params.${field}`,
        message: `\`params.${field}\` is Kling's field that ${setBy.startsWith("the") || setBy.startsWith("reelsmith") ? setBy : `\`${setBy}\``} sets: leave it out`,
      });
    }
  }
  return problems;
}

/**
 * A checked request as Kling's body: `model_name`, `prompt`, `duration` ("5" or "10"),
 * `aspect_ratio` from `size` (text2video only: image2video keeps the image's), `image` (a URL, or the bytes as bare base64 as Kling wants
 * them), `external_task_id` (the caller's key), and the params as they are.
 *
 * @example
 * ```ts
 * klingVideoInput({ model: "kling-v2-1", prompt: "a fox", seconds: 5, size: "1280x720" }, "key-1");
 * // { model_name: "kling-v2-1", prompt: "a fox", duration: "5", aspect_ratio: "16:9", external_task_id: "key-1" }
 * ```
 */
export function klingVideoInput(
  params: VideoCreateParams,
  externalTaskId: string,
): Record<string, unknown> {
  const input: Record<string, unknown> = { model_name: params.model, prompt: params.prompt };
  if (params.seconds !== undefined) input.duration = String(params.seconds).trim();
  const image = params.image ?? params.image_url;
  // image2video takes no aspect_ratio: the clip has the image's (size is still checked).
  if (params.size !== undefined && image === undefined) {
    input.aspect_ratio = klingAspectRatio(params.size);
  }
  if (image !== undefined) {
    const url = imageAsURL(image, "image");
    input.image = url.replace(/^data:[^;,]*;base64,/i, "");
  }
  for (const [name, value] of Object.entries(params.params ?? {})) input[name] = value;
  input.external_task_id = externalTaskId;
  return input;
}
