import {
  findVideoRequestProblems,
  InvalidRequestError,
  type VideoCreateParams,
} from "../../pipeline/core-shim.js";
import { outputPathProblem } from "../../pipeline/output-path.js";
import { closest } from "../../pipeline/schema-errors.js";
import type { CheckContext } from "../step-kind.js";
import { videoModelsOf } from "./video-models.js";
import { paramsToCheck } from "./video-params.js";
import type { VideoStepSpec } from "./video-schema.js";
import { isAtLeastSeconds, roundUpSeconds, secondsAtLeast } from "./video-seconds.js";

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
 * Static checks of a video step: a model is set; literal `seconds`/`size` are within the
 * model's limits (spec 2.3) and literal `params` are ones the model declares, of their type,
 * within their allowed values; the output paths (clip, last frame) stay in the run directory.
 *
 * @example
 * ```ts
 * checkVideoStep({ model: "reel-video-1", prompt: "x", seconds: 12 }, context); // reports ["seconds"]
 * checkVideoStep({ model: "veo-3-fast", prompt: "x", params: { seed: "7" } }, context); // reports ["params", "seed"]
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
  const literalModel = context.isLiteral(spec.model);
  const catalog = literalModel ? videoModelsOf(context.catalogs) : undefined;
  const known = catalog?.find((model) => model.id === spec.model);
  // An unknown model is the model check's (judgeModelUses): its limits are not checked here.
  // core's checker is the authority on limits and parameters: its messages name the allowed
  // values and the nearest model that would accept the request. Without the model's spec only
  // the parameters' shapes are checked (a name the request itself uses, a value of no type).
  const request: Record<string, unknown> = {
    model: known ? known.id : literalModel ? spec.model : "-",
    prompt: "-",
  };
  if (known) {
    for (const field of ["seconds", "size"] as const) {
      const value = spec[field];
      if (value !== undefined && context.isLiteral(value)) request[field] = value;
    }
    if (isAtLeastSeconds(spec.seconds)) {
      delete request.seconds;
      const atLeast = context.isLiteral(spec.seconds) ? secondsAtLeast(spec.seconds) : undefined;
      if (atLeast !== undefined) {
        try {
          request.seconds = roundUpSeconds(atLeast, known);
        } catch (error) {
          context.report(["seconds", "at_least"], (error as Error).message, {
            code: "video_seconds_out_of_range",
          });
        }
      }
    }
  }
  const params = paramsToCheck(spec.params, known, (value) => context.isLiteral(value));
  if (params) request.params = params;
  const problems = findVideoRequestProblems(
    request as unknown as VideoCreateParams,
    known ? catalog : undefined,
  );
  for (const problem of problems) {
    const path = problemPath(problem.field);
    if (!path) continue;
    const code = problemCode(problem.field, problem.message);
    const near =
      code === "video_param_unknown"
        ? closest(String(path[1]), Object.keys(known?.params ?? {}))
        : undefined;
    const hint = near
      ? { hint: `did you mean \`${near}\`?` }
      : known && problem.allowed && !problem.message.includes(problem.allowed)
        ? { hint: `${known.id} allows ${problem.allowed}` }
        : {};
    context.report(path, problem.message, { code, ...hint });
  }
}

/** Where a problem of core's checker is in the step body (fields the step does not set: none). */
function problemPath(field: string): string[] | undefined {
  if (field === "seconds" || field === "size") return [field];
  if (field.startsWith("params.")) return ["params", field.slice("params.".length)];
  return undefined;
}

function problemCode(field: string, message: string): string {
  if (field === "seconds") return "video_seconds_out_of_range";
  if (field === "size") return "video_size_unsupported";
  if (message.includes("is not a parameter of")) return "video_param_unknown";
  if (message.includes("one of the request's own fields")) return "video_param_reserved";
  return "video_param_invalid";
}
