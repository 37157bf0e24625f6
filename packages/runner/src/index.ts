// @reelsmith/runner: run declarative YAML pipelines (chat, video, ffmpeg steps and your own
// kinds), validate, plan and inspect them, retake an item and pick a take, decide a gate,
// read a run's journal, ledger and events, load a provider profile. A library: it never
// prints; every failure is one of the errors below. Kind authoring (`defineStepKind`, the
// kind types, `builtInStepKinds`) is in `@reelsmith/runner/kinds`; validation alone in
// `@reelsmith/runner/validate`; the cache's administration also in `@reelsmith/runner/cache`.
// `@reelsmith/runner/internal` holds the parts the CLI and the other executors are built
// from: not a stable API.

// Batches: one run per row of an inputs file, one estimate and one budget.
export type { BatchEvent } from "./batch/batch-event.js";
export type {
  BatchRowHost,
  BatchRowOutcome,
  BatchRowRequest,
} from "./batch/batch-row-host.js";
export { type BatchRowProblem, BatchRowsError } from "./batch/batch-rows-error.js";
export {
  type BatchJson,
  type BatchRowState,
  type BatchRowStatus,
  type BatchStatus,
  batchPath,
  isBatchDirectory,
  readBatchJson,
} from "./batch/batch-store.js";
export { type BatchEstimate, type PlannedRow, planRows } from "./batch/plan-batch.js";
export { type BatchRow, readRows } from "./batch/read-rows.js";
export {
  type BatchOptions,
  type BatchResult,
  resumeBatch,
  runBatch,
} from "./batch/run-batch.js";
// Provider profiles and the result cache.
export { type CacheListing, clearCache, listCache } from "./cache/cache-admin.js";
// The errors: every error a run, a validation, a take or a gate throws or returns.
export * from "./errors/index.js";
// A run on disk: what it is, its events, its journal and what it spent.
export { readEventLog } from "./events/read-event-log.js";
export {
  countMade,
  describeMade,
  type ProgressStage,
  type ResumeReason,
  type RunEvent,
  type RunEventOf,
  type RunStatus,
  type RunTotals,
  type SerializedError,
  type UnitProgress,
  type WaitingGate,
} from "./events/run-event.js";
export { inspectRun, type RunOnDisk } from "./executor/inspect-run.js";
export type { OpenedRun } from "./executor/run-session.js";
export { ExpressionError } from "./expressions/expression-error.js";
export { readJournal } from "./journal/journal.js";
export type { JournalRecord } from "./journal/journal-record.js";
export { type Ledger, type LedgerRecord, ledgerOf } from "./ledger/ledger.js";
// Validate and load.
export { type Diagnostic, formatDiagnostic } from "./pipeline/diagnostic.js";
export * from "./pipeline/errors/index.js";
export {
  type LoadedPipeline,
  objectSource,
  type PipelineSource,
} from "./pipeline/load-pipeline.js";
export type { PipelineSpec } from "./pipeline/pipeline-spec.js";
export {
  loadPipeline,
  type ValidateOptions,
  validatePipeline,
} from "./pipeline/validate-pipeline.js";
// Plan and estimate.
export { type EstimateRunOptions, estimateRun } from "./plan/estimate-run.js";
export { type PlanOptions, planPipeline } from "./plan/plan-pipeline.js";
export type { OtherUnitTotal, Plan, RunEstimate, StepEstimate } from "./plan/plan-types.js";
export { type FoundProfile, findProfile } from "./profile/find-profile.js";
export { type LoadedProfile, loadProfile } from "./profile/load-profile.js";
export { ProfileError } from "./profile/profile-error.js";
export {
  type ProfileAccountService,
  type ProfileService,
  serviceFromProfile,
} from "./profile/service-from-profile.js";
// Run and stream.
export type { RunOptions, RunResult } from "./run-options.js";
export { runPipeline } from "./run-pipeline.js";
// Takes and gates.
export {
  type ApprovalDecision,
  type GateState,
  gatesOf,
} from "./steps/approve/approval-journal.js";
export { decideApproval } from "./steps/approve/decide-approval.js";
export * from "./steps/approve/errors/index.js";
export type { DecisionRequest } from "./steps/approve/plan-decision.js";
export * from "./steps/chat/errors/index.js";
export * from "./steps/ffmpeg/errors/index.js";
export { UnsettledRequestError } from "./steps/speech/unsettled-request-error.js";
export * from "./steps/video/errors/index.js";
export { streamPipeline } from "./stream-pipeline.js";
export { openRun } from "./takes/open-run.js";
export { type PickRequest, pickTake, streamPick } from "./takes/pick-take.js";
export { type RetakeRequest, retakeItem, streamRetake } from "./takes/retake-item.js";
