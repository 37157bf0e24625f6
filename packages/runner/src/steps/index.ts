import { chatStep } from "./chat/chat-step.js";
import { ffmpegStep } from "./ffmpeg/ffmpeg-step.js";
import type { StepKind } from "./step-kind.js";
import { videoStep } from "./video/video-step.js";

export { chatStep, runChatStep } from "./chat/chat-step.js";
export { runToolCommand } from "./chat/tool-command.js";
export { ffmpegStep, runFfmpegStep } from "./ffmpeg/ffmpeg-step.js";
export { runVideoStep, videoIdempotencyKey, videoStep } from "./video/video-step.js";

/**
 * The step kinds a run uses by default. A new kind is one folder and one entry here.
 * @example builtinStepKinds.map((k) => k.kind) // ["chat", "video", "ffmpeg"]
 */
export const builtinStepKinds: readonly StepKind[] = [
  chatStep,
  videoStep,
  ffmpegStep,
] as unknown as readonly StepKind[];
