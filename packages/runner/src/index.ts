// One sorted list: the pipeline side (expressions, pipeline, plan, step definitions) and the
// execution side (cache, events, executor, journal, runPipeline, step kinds) both add lines here.
export {
  BUILT_IN_SERVICE,
  type CacheEntry,
  type CacheIndex,
  type CacheListing,
  type CacheLocation,
  cacheListing,
  clearBlobs,
  clearCache,
  createFileCacheIndex,
  DEFAULT_CACHE_DIR,
  entryBytes,
  listCache,
  restoreFromCache,
  serviceIdentity,
  storeInCache,
} from "./cache/index.js";
export * from "./errors/index.js";
export * from "./events/index.js";
export { type BudgetRequest, type CreditBudget, createBudget } from "./executor/budget.js";
export {
  type ExecuteOptions,
  type ExecuteResult,
  executePipeline,
  kindOfStep,
  type StepSummary,
} from "./executor/execute-pipeline.js";
export type { ExecutionContext, ExecutionExtras } from "./executor/execution-context.js";
export { loadForRun, type PipelineForRun, runInputs } from "./executor/load-for-run.js";
export { resolveOutputPath } from "./executor/resolve-output-path.js";
export { leftoverStaging, removeStaging } from "./executor/run-directory.js";
export { runUnit, type UnitResult, type UnitServices, type UnitWork } from "./executor/run-unit.js";
export type { LimitRunner } from "./executor/slot-pool.js";
export { localUnits, type UnitExecutor } from "./executor/unit-executor.js";
export * from "./expressions/index.js";
export {
  type ItemState,
  type JournalRecord,
  type JournalWriter,
  type RunState,
  readJournal,
  replayJournal,
  SINGLE_ITEM,
  type StepJournal,
} from "./journal/index.js";
export * from "./pipeline/index.js";
export * from "./plan/index.js";
export type { RunOptions, RunResult, SubRunOf } from "./run-options.js";
export { runPipeline } from "./run-pipeline.js";
export * from "./steps/index.js";
export { streamPipeline } from "./stream-pipeline.js";
