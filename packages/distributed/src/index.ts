// @reelsmith/distributed: a run on many machines. Submit a run to a PostgreSQL database
// (`connect`, `submitRun`, `resumeRun`), follow, decide or cancel it, read its status, and
// start workers that run its steps. Named subpaths: `@reelsmith/distributed/admin` (budgets,
// learnt prices, the shared cache, service limits, the workers list) and
// `@reelsmith/distributed/internal` (the parts the CLI and the studio are built from, not a
// stable API).
export {
  type BatchDetail,
  type BatchRowRunOptions,
  batchDetail,
  publishBatch,
} from "./client/batch-rows.js";
export { cancelRun } from "./client/cancel-run.js";
export { type Coordinator, connect } from "./client/connect.js";
export { decideRun, type RecordedDecision } from "./client/decide-run.js";
export {
  type DatabaseWaitNotice,
  type FollowedRun,
  followRun,
  type NoWorkerNotice,
} from "./client/follow-run.js";
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
export { startWorker, type Worker, type WorkerOptions } from "./worker/start-worker.js";
