import {
  findVideoRequestProblems,
  InvalidRequestError,
  type VideoCreateParams,
} from "../../pipeline/core-shim.js";
import { outputPathProblem } from "../../pipeline/output-path.js";
import type { CheckContext } from "../step-kind.js";
import type { VideoStepSpec } from "./video-schema.js";

/** Longest video prompt the reference service takes, in characters (its documented limit). */
export const MAX_VIDEO_PROMPT_CHARS = 10_000;

/**
 * Refuses a video prompt longer than the service takes, before it is sent (run time, for
 * prompts that come from expressions). Throws InvalidRequestError naming `prompt`.
 * @example assertVideoPromptLength("a fox at dawn");
 */
export function assertVideoPromptLength(prompt: string): void {
  if (prompt.length > MAX_VIDEO_PROMPT_CHARS) {
    throw new InvalidRequestError(
      "prompt",
      `The video prompt is ${prompt.length} characters; the service takes at most ${MAX_VIDEO_PROMPT_CHARS}.`,
    );
  }
}

/**
 * Static checks of a video step: a model is set, and literal `seconds`/`size` are within
 * the model's limits (spec 2.3); the output paths (clip, last frame) stay in the run directory.
 *
 * @example
 * ```ts
 * checkVideoStep({ model: "reel-video-1", prompt: "x", seconds: 12 }, context); // reports ["seconds"]
 * ```
 */
export function checkVideoStep(spec: VideoStepSpec, context: CheckContext): void {
  if (spec.output !== undefined) {
    const problem = outputPathProblem(spec.output);
    if (problem) context.report(["output"], problem, { code: "output_path_escapes" });
  }
  // The extension is known unless the path ends with an expression.
  if (spec.last_frame_output !== undefined) {
    const problem = outputPathProblem(spec.last_frame_output);
    if (problem) context.report(["last_frame_output"], problem, { code: "output_path_escapes" });
    else if (!/\}\}\s*$/.test(spec.last_frame_output) && !/\.png$/i.test(spec.last_frame_output))
      context.report(["last_frame_output"], "the last frame is saved as a PNG: use a .png path", {
        code: "video_last_frame_extension",
      });
  }
  if (typeof spec.prompt === "string" && spec.prompt.length > MAX_VIDEO_PROMPT_CHARS) {
    context.report(
      ["prompt"],
      `the prompt is ${spec.prompt.length} characters; video prompts are at most ${MAX_VIDEO_PROMPT_CHARS}`,
      { code: "video_prompt_too_long" },
    );
  }
  if (spec.model === undefined) {
    context.report([], "no video model: set `model` here or `defaults.video.model`", {
      code: "video_no_model",
    });
    return;
  }
  if (!context.isLiteral(spec.model) || !context.videoModels) return;
  const known = context.videoModels.find((model) => model.id === spec.model);
  if (!known) {
    const ids = context.videoModels.map((model) => model.id).join(", ");
    context.report(
      ["model"],
      `unknown video model \`${spec.model}\`; its limits cannot be checked`,
      {
        severity: "warning",
        code: "video_unknown_model",
        hint: ids ? `known models: ${ids}` : undefined,
      },
    );
    return;
  }
  // core's checker is the authority on limits: its messages name the allowed values and the
  // nearest model that would accept the request.
  const request: Record<string, unknown> = { model: known.id, prompt: "-" };
  for (const field of ["seconds", "size"] as const) {
    const value = spec[field];
    if (value !== undefined && context.isLiteral(value)) request[field] = value;
  }
  const codes = { seconds: "video_seconds_out_of_range", size: "video_size_unsupported" };
  for (const problem of findVideoRequestProblems(
    request as unknown as VideoCreateParams,
    context.videoModels,
  )) {
    const field = problem.field as "seconds" | "size";
    if (!(field in codes)) continue;
    context.report([field], problem.message, {
      code: codes[field],
      ...(problem.allowed && !problem.message.includes(problem.allowed)
        ? { hint: `${known.id} allows ${problem.allowed}` }
        : {}),
    });
  }
}
