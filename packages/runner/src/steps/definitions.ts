import { chatDefinition } from "./chat/index.js";
import { ffmpegDefinition } from "./ffmpeg/index.js";
import type { StepKindDefinition } from "./step-kind.js";
import { videoDefinition } from "./video/index.js";

export { stepKindNames, stepOutputNames } from "./built-in-kinds.js";

/**
 * Every step kind the pipeline format knows, in the order the schema lists them, with their
 * TypeBox body schemas. A new kind adds its definition here, its name, checks and outputs in
 * `built-in-kinds.ts` (and its `run` in the executor's registry).
 *
 * @example
 * ```ts
 * stepDefinitions.map((definition) => definition.kind); // ["chat", "video", "ffmpeg"]
 * ```
 */
export const stepDefinitions = [chatDefinition, videoDefinition, ffmpegDefinition] as const;

/**
 * The definition for a kind name.
 *
 * @example
 * ```ts
 * definitionOf("video")?.schema;
 * ```
 */
export function definitionOf(kind: string): StepKindDefinition<never> | undefined {
  return stepDefinitions.find((definition) => definition.kind === kind) as
    | StepKindDefinition<never>
    | undefined;
}
