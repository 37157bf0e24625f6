// One sorted list: the pipeline side (expressions, pipeline, plan, step definitions) and the
// execution side (cache, events, executor, journal, runPipeline, step kinds) both add lines here.
export { type CacheListing, clearCache, DEFAULT_CACHE_DIR, listCache } from "./cache/index.js";
export * from "./errors/index.js";
export * from "./events/index.js";
export type { StepSummary } from "./executor/execute-pipeline.js";
export type { ExecutionContext, ExecutionExtras } from "./executor/execution-context.js";
export { resolveOutputPath } from "./executor/resolve-output-path.js";
export * from "./expressions/index.js";
export {
  type JournalRecord,
  readJournal,
  replayJournal,
  type StepJournal,
} from "./journal/index.js";
export * from "./pipeline/index.js";
export * from "./plan/index.js";
export type { RunOptions, RunResult } from "./run-options.js";
export { runPipeline } from "./run-pipeline.js";
export {
  builtinStepKinds,
  chatStep,
  ffmpegStep,
  runToolCommand,
  videoIdempotencyKey,
  videoStep,
} from "./steps/index.js";
export type { StepKind, StepRunContext } from "./steps/step-kind.js";
export { streamPipeline } from "./stream-pipeline.js";
