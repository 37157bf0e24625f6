// @reelsmith/runner/errors: every error class a run, a validation, a take, a gate, a batch
// or a profile throws or returns. Each is a `RunnerError` (itself a `ReelsmithError` of
// @reelsmith/core) with a stable `code`, a `category` and a static `isInstance`.
// @example import { BudgetExceededError } from "@reelsmith/runner/errors";
export { BatchRowsError } from "./batch/batch-rows-error.js";
export * from "./errors/index.js";
export { ExpressionError } from "./expressions/expression-error.js";
export * from "./pipeline/errors/index.js";
export { ProfileError } from "./profile/profile-error.js";
export * from "./steps/approve/errors/index.js";
export * from "./steps/chat/errors/index.js";
export * from "./steps/ffmpeg/errors/index.js";
export { UnsettledRequestError } from "./steps/speech/unsettled-request-error.js";
export * from "./steps/video/errors/index.js";
