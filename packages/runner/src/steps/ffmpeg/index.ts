import type { StepKindDefinition } from "../step-kind.js";
import { checkFfmpegStep } from "./ffmpeg-check.js";
import { FfmpegStepSchema, type FfmpegStepSpec } from "./ffmpeg-schema.js";

export * from "./ffmpeg-check.js";
export * from "./ffmpeg-schema.js";

/**
 * The `ffmpeg` kind as the pipeline sees it: its body schema and static checks.
 *
 * @example
 * ```ts
 * ffmpegDefinition.kind; // "ffmpeg"
 * ```
 */
export const ffmpegDefinition: StepKindDefinition<FfmpegStepSpec> = {
  kind: "ffmpeg",
  schema: FfmpegStepSchema,
  check: checkFfmpegStep,
};
