import type { StepKindDefinition } from "../step-kind.js";
import { checkVideoStep } from "./video-check.js";
import { VideoStepSchema, type VideoStepSpec } from "./video-schema.js";

export * from "./video-check.js";
export * from "./video-schema.js";

/**
 * The `video` kind as the pipeline sees it: its body schema and static checks.
 *
 * @example
 * ```ts
 * videoDefinition.kind; // "video"
 * ```
 */
export const videoDefinition: StepKindDefinition<VideoStepSpec> = {
  kind: "video",
  schema: VideoStepSchema,
  check: checkVideoStep,
};
