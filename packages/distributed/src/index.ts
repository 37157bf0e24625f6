export {
  createDatabaseBudget,
  type DatabaseBudgetOptions,
  setBudget,
} from "./budget/database-budget.js";
export { type LearntPriceRow, listLearntPrices } from "./budget/learnt-prices.js";
export {
  type ClearedDatabaseCache,
  clearDatabaseCache,
  listDatabaseCache,
} from "./cache/database-cache-admin.js";
export { createDatabaseCacheIndex } from "./cache/database-cache-index.js";
export {
  type BatchDetail,
  type BatchRowRunOptions,
  batchDetail,
  createDatabaseRowHost,
  type DatabaseRowHostOptions,
  publishBatch,
  rowRunId,
} from "./client/batch-rows.js";
export { cancelRun } from "./client/cancel-run.js";
export { configureService, type ServiceLimits } from "./client/configure-service.js";
export { type Coordinator, connect } from "./client/connect.js";
export { decideRun, type RecordedDecision } from "./client/decide-run.js";
export {
  type DatabaseWaitNotice,
  type FollowedRun,
  followRun,
  lastEventId,
  type NoWorkerNotice,
} from "./client/follow-run.js";
export {
  type DatabaseRunRecord,
  type RunWorker,
  readRunRecord,
  runChangeStamp,
  runWorkers,
} from "./client/run-record.js";
export {
  type JobState,
  listRunSummaries,
  type RunDetail,
  type RunSummary,
  runDetail,
} from "./client/run-status.js";
export {
  resumeRun,
  type SubmitRunOptions,
  type SubmittedRun,
  submitRun,
} from "./client/submit-run.js";
export type { Logger } from "./database/pool.js";
export { type MigrateOptions, migrate } from "./database/schema.js";
export { DatabaseWaitError } from "./errors/database-wait-error.js";
export { type ServiceAccount, serviceAccount } from "./service.js";
export { runJsonOf } from "./store/run-directory-mirror.js";
export { artifactsCacheDir } from "./store/run-paths.js";
export type { RunRow } from "./store/run-store.js";
export { startWorker, type Worker, type WorkerOptions } from "./worker/start-worker.js";
export { listWorkers, type WorkerInfo } from "./worker/worker-registry.js";
