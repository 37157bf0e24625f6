// The step kinds: each folder is one kind, `registry.ts` lists them.
export { chatKind } from "./chat/index.js";
export { runToolCommand } from "./chat/tool-command.js";
export { defineStepKind, usageAndCredits } from "./define-step-kind.js";
export { ffmpegKind } from "./ffmpeg/index.js";
export { builtInStepKinds, isBuiltInKindSet, kindOf, kindsByName } from "./registry.js";
export type * from "./step-kind.js";
export { videoKind } from "./video/index.js";
export { videoIdempotencyKey } from "./video/video-idempotency-key.js";
