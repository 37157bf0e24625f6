import { chatDefinition, chatOutputs } from "./chat/index.js";
import { ffmpegDefinition, ffmpegOutputs } from "./ffmpeg/index.js";
import type { StepKindDefinition } from "./step-kind.js";
import { videoDefinition, videoOutputs } from "./video/index.js";

/**
 * Every step kind the pipeline format knows, in the order the schema lists them.
 * A new kind adds its definition here (and its `run` in the executor's registry).
 *
 * @example
 * ```ts
 * stepDefinitions.map((definition) => definition.kind); // ["chat", "video", "ffmpeg"]
 * ```
 */
export const stepDefinitions = [chatDefinition, videoDefinition, ffmpegDefinition] as const;

/** Kind names, e.g. "chat". */
export const stepKindNames: readonly string[] = stepDefinitions.map(
  (definition) => definition.kind,
);

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

/**
 * The outputs each kind produces, for checking `steps.<id>.outputs.<name>` references.
 *
 * @example
 * ```ts
 * stepOutputNames.video; // ["file", "id", "duration", "credits", "url"]
 * ```
 */
export const stepOutputNames: Readonly<Record<string, readonly string[]>> = {
  chat: chatOutputs,
  video: videoOutputs,
  ffmpeg: ffmpegOutputs,
};
