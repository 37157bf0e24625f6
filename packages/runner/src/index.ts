// @reelsmith/runner: run declarative YAML pipelines (chat, video, ffmpeg steps and your own
// kinds), validate and plan them. What the CLI and the distributed executor need beyond this
// is in `@reelsmith/runner/internal`; the cache's administration in `@reelsmith/runner/cache`;
// validation alone, without the run side, in `@reelsmith/runner/validate`.
export * from "./errors/index.js";
export {
  countMade,
  type DistributiveOmit,
  describeMade,
  type ProgressStage,
  type RunEvent,
  type RunEventOf,
  type RunStatus,
  type RunTotals,
  type SerializedError,
  type UnitProgress,
  type WaitingGate,
} from "./events/run-event.js";
export { ExpressionError } from "./expressions/expression-error.js";
export { type Ledger, type LedgerRecord, ledgerOf } from "./ledger/ledger.js";
export * from "./pipeline/index.js";
export { type EstimateRunOptions, estimateRun } from "./plan/estimate-run.js";
export { type PlanOptions, planPipeline } from "./plan/plan-pipeline.js";
export type {
  Plan,
  PlanLimits,
  PlannedFanOut,
  PlannedStep,
  PlanStage,
  RunEstimate,
  StepEstimate,
} from "./plan/plan-types.js";
export type { RunOptions, RunResult, SubRunOf } from "./run-options.js";
export { runPipeline } from "./run-pipeline.js";
export {
  type ApprovalDecision,
  type GateState,
  gatesOf,
} from "./steps/approve/approval-journal.js";
export { decideApproval } from "./steps/approve/decide-approval.js";
export * from "./steps/approve/errors/index.js";
export { approveKind } from "./steps/approve/index.js";
export type { DecisionRequest } from "./steps/approve/plan-decision.js";
export * from "./steps/chat/errors/index.js";
export { chatKind } from "./steps/chat/index.js";
export { defineStepKind, usageAndCredits } from "./steps/define-step-kind.js";
export * from "./steps/ffmpeg/errors/index.js";
export { ffmpegKind } from "./steps/ffmpeg/index.js";
export { builtInStepKinds } from "./steps/registry.js";
export { UnsettledRequestError } from "./steps/speech/unsettled-request-error.js";
export {
  arrayOf,
  BOOLEAN,
  NUMBER,
  objectOf,
  STRING,
  type StaticType,
  typeFromSchema,
  UNKNOWN,
} from "./steps/static-types.js";
export type * from "./steps/step-kind.js";
export * from "./steps/video/errors/index.js";
export { videoKind } from "./steps/video/index.js";
export { streamPipeline } from "./stream-pipeline.js";
export { type PickRequest, pickTake, streamPick } from "./takes/pick-take.js";
export { type RetakeRequest, retakeItem, streamRetake } from "./takes/retake-item.js";
export type { TakeTarget } from "./takes/take-unit.js";
