import { checkChatStep } from "./chat/chat-check.js";
import { chatOutputs } from "./chat/chat-outputs.js";
import { checkFfmpegStep } from "./ffmpeg/ffmpeg-check.js";
import { ffmpegOutputs } from "./ffmpeg/ffmpeg-operations.js";
import type { StepKindDefinition } from "./step-kind.js";
import { checkVideoStep } from "./video/video-check.js";
import { videoOutputs } from "./video/video-outputs.js";

/**
 * A step kind as validation uses it: its YAML key and its static checks. The body schemas of
 * the built-in kinds are already in the generated pipeline schema, so validating a pipeline
 * that uses only them never loads the TypeBox builders (see `definitions.ts` for the full
 * definitions, schemas included).
 */
export type KindChecks = Pick<StepKindDefinition<never>, "kind" | "check">;

/** Kind names, e.g. "chat", in the order the schema lists them. */
export const stepKindNames: readonly string[] = ["chat", "video", "ffmpeg"];

/** The built-in kinds' static checks, in the order of `stepKindNames`. */
export const builtInKindChecks: readonly KindChecks[] = [
  { kind: "chat", check: checkChatStep as KindChecks["check"] },
  { kind: "video", check: checkVideoStep as KindChecks["check"] },
  { kind: "ffmpeg", check: checkFfmpegStep as KindChecks["check"] },
];

/**
 * The outputs each kind produces, for checking `steps.<id>.outputs.<name>` references.
 *
 * @example
 * ```ts
 * stepOutputNames.video; // ["file", "id", "duration", "credits", "url", "probe"]
 * ```
 */
export const stepOutputNames: Readonly<Record<string, readonly string[]>> = {
  chat: chatOutputs,
  video: videoOutputs,
  ffmpeg: ffmpegOutputs,
};

/** True when `kinds` are exactly the built-in kinds (in any order). */
export function isBuiltInKindSet(kinds: readonly string[]): boolean {
  return (
    kinds.length === stepKindNames.length && stepKindNames.every((kind) => kinds.includes(kind))
  );
}
