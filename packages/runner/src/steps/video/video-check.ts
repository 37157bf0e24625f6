import { outputPathProblem } from "../../pipeline/output-path.js";
import type { CheckContext } from "../step-kind.js";
import type { VideoStepSpec } from "./video-schema.js";

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
  if (spec.seconds !== undefined && context.isLiteral(spec.seconds)) {
    const seconds = Number(spec.seconds);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > limits.maxSeconds) {
      context.report(
        ["seconds"],
        `seconds ${spec.seconds} is outside ${limits.id}'s limit of 1 to ${limits.maxSeconds} seconds`,
        { code: "VIDEO_SECONDS_OUT_OF_RANGE" },
      );
    }
  }
  if (
    spec.size !== undefined &&
    context.isLiteral(spec.size) &&
    !limits.sizes.includes(spec.size)
  ) {
    context.report(["size"], `size ${spec.size} is not offered by ${limits.id}`, {
      code: "VIDEO_SIZE_UNSUPPORTED",
      hint: `${limits.id} sizes: ${limits.sizes.join(", ")}`,
    });
  }
}
