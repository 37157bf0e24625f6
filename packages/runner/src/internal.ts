// @reelsmith/runner/internal: the runner's parts that its executors and tools are built from
// (the CLI, @reelsmith/distributed, @reelsmith/report). Not a stable API for other users:
// names here may change with any release. Users import `@reelsmith/runner`.
export * from "./cache/index.js";
export * from "./events/index.js";
export { type BudgetRequest, type CreditBudget, createBudget } from "./executor/budget.js";
export {
  type BudgetAdmissionOptions,
  budgetAdmission,
  uncachedSteps,
} from "./executor/budget-admission.js";
export { videoModelsListed } from "./executor/check-models.js";
export { behindGates } from "./executor/estimate-behind-gates.js";
export type { ExecutableSpec, ExecutableStep, StepGraph } from "./executor/executable-pipeline.js";
export {
  type ExecuteOptions,
  type ExecuteResult,
  executePipeline,
  kindOfStep,
} from "./executor/execute-pipeline.js";
export type { ExecutionContext, ExecutionExtras } from "./executor/execution-context.js";
export { inspectRun, type RunOnDisk } from "./executor/inspect-run.js";
export { isAbortError } from "./executor/is-abort-error.js";
export { loadForRun, type PipelineForRun, runInputs } from "./executor/load-for-run.js";
export { replayJournal } from "./executor/replay-journal.js";
export { resolveOutputPath } from "./executor/resolve-output-path.js";
export { leftoverStaging, removeStaging } from "./executor/run-directory.js";
export {
  type RunEnding,
  runStartSteps,
  settleRun,
  subPipelineOutputs,
} from "./executor/run-lifecycle.js";
export { runUnit, type UnitResult, type UnitServices, type UnitWork } from "./executor/run-unit.js";
export type { LimitRunner } from "./executor/slot-pool.js";
export type { StepSummary } from "./executor/step-summary.js";
export { localUnits, type UnitExecutor } from "./executor/unit-executor.js";
export { type UnitRequestAt, unitIdempotencyKey } from "./executor/unit-idempotency-key.js";
export * from "./expressions/index.js";
export * from "./journal/index.js";
export {
  createLedger,
  type Ledger,
  type LedgerRecord,
  type LiveLedger,
  ledgerOf,
  takeKey,
  unitKey,
} from "./ledger/ledger.js";
export { journaledOptions } from "./lifecycle/journaled-options.js";
export { refuseOverBudget } from "./lifecycle/run-estimate-check.js";
export type {
  RunHost,
  RunJournalStore,
  RunRecord,
  RunToPlay,
} from "./lifecycle/run-host.js";
export { runLifecycle } from "./lifecycle/run-lifecycle.js";
export { type SubRunDepthOf, subRunDepth } from "./lifecycle/sub-run-depth.js";
export { type StepPositions, stepPositions } from "./pipeline/step-positions.js";
export * from "./plan/index.js";
export {
  APPROVAL_DECISION,
  APPROVAL_WAITING,
  decisionRecord,
  readDecision,
} from "./steps/approve/approval-journal.js";
export { planDecision } from "./steps/approve/plan-decision.js";
export { runToolCommand } from "./steps/chat/tool-command.js";
export { isBuiltInKindSet, kindOf, kindsByName } from "./steps/registry.js";
export * from "./takes/index.js";
