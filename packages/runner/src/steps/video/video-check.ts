import type { VideoCreateParams } from "@reelsmith/core";
import { InvalidRequestError, validateVideoRequest } from "../../pipeline/core-shim.js";
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
 * the model's limits (spec 2.3); the output path stays in the run directory.
 *
 * @example
 * ```ts
 * checkVideoStep({ model: "reel-video-1", prompt: "x", seconds: 12 }, context); // reports ["seconds"]
 * ```
 */
export function checkVideoStep(spec: VideoStepSpec, context: CheckContext): void {
  if (spec.output !== undefined) {
    const problem = outputPathProblem(spec.output);
    if (problem) context.report(["output"], problem, { code: "OUTPUT_PATH_ESCAPES" });
  }
  if (typeof spec.prompt === "string" && spec.prompt.length > MAX_VIDEO_PROMPT_CHARS) {
    context.report(
      ["prompt"],
      `the prompt is ${spec.prompt.length} characters; video prompts are at most ${MAX_VIDEO_PROMPT_CHARS}`,
      { code: "VIDEO_PROMPT_TOO_LONG" },
    );
  }
  if (spec.model === undefined) {
    context.report([], "no video model: set `model` here or `defaults.video.model`", {
      code: "VIDEO_NO_MODEL",
    });
    return;
  }
  if (!context.isLiteral(spec.model)) return;
  const limits = context.videoModels.find((model) => model.id === spec.model);
  if (!limits) {
    const known = context.videoModels.map((model) => model.id).join(", ");
    context.report(
      ["model"],
      `unknown video model \`${spec.model}\`; its limits cannot be checked`,
      {
        severity: "warning",
        code: "VIDEO_UNKNOWN_MODEL",
        hint: known ? `known models: ${known}` : undefined,
      },
    );
    return;
  }
  // core's validateVideoRequest is the authority on limits; the wording here adds the model's range.
  const rejects = (field: "seconds" | "size", value: unknown): boolean => {
    try {
      validateVideoRequest(
        { model: limits.id, prompt: "-", [field]: value } as VideoCreateParams,
        context.videoModels,
      );
      return false;
    } catch (error) {
      return InvalidRequestError.isInstance(error) && error.field === field;
    }
  };
  if (
    spec.seconds !== undefined &&
    context.isLiteral(spec.seconds) &&
    rejects("seconds", spec.seconds)
  ) {
    context.report(
      ["seconds"],
      `seconds ${spec.seconds} is outside ${limits.id}'s limit of 1 to ${limits.maxSeconds} seconds`,
      {
        code: "VIDEO_SECONDS_OUT_OF_RANGE",
      },
    );
  }
  if (spec.size !== undefined && context.isLiteral(spec.size) && rejects("size", spec.size)) {
    context.report(["size"], `size ${spec.size} is not offered by ${limits.id}`, {
      code: "VIDEO_SIZE_UNSUPPORTED",
      hint: `${limits.id} sizes: ${limits.sizes.join(", ")}`,
    });
  }
}
