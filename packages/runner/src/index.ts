// @reelsmith/runner: run declarative YAML pipelines (chat, video, ffmpeg steps and your own
// kinds), stream their events, validate and plan them, retake an item and pick a take. A
// library: it never prints; every failure is a `RunnerError` with a stable `code`.
// The rest is on named subpaths:
// - `@reelsmith/runner/errors`: every error class, each with its `code` and `isInstance`;
// - `@reelsmith/runner/runs`: a run on disk (events, journal, ledger, gates and deciding one);
// - `@reelsmith/runner/batch`: one run per row of an inputs file;
// - `@reelsmith/runner/kinds`: kind authoring (`defineStepKind`, `builtInStepKinds`);
// - `@reelsmith/runner/profile`, `/cache`, `/validate` (validation alone, light to load);
// - `@reelsmith/runner/internal`: the parts the CLI and the other executors are built from,
//   not a stable API.

// The error base: every error the runner throws or returns is one, its `code` one of its codes.
export { RunnerError, type RunnerErrorOptions } from "./errors/runner-error.js";
export type { RunnerErrorCode } from "./errors/runner-error-code.js";
// The events a run emits.
export type {
  ProgressStage,
  ResumeReason,
  RunEvent,
  RunEventOf,
  RunStatus,
  RunTotals,
  SerializedError,
  UnitProgress,
  WaitingGate,
} from "./events/run-event.js";
// Validate.
export { type Diagnostic, formatDiagnostic } from "./pipeline/diagnostic.js";
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
// Run and stream.
export type { RunOptions, RunResult } from "./run-options.js";
export { runPipeline } from "./run-pipeline.js";
export { streamPipeline } from "./stream-pipeline.js";
// Takes.
export { type PickRequest, pickTake, streamPick } from "./takes/pick-take.js";
export { type RetakeRequest, retakeItem, streamRetake } from "./takes/retake-item.js";
