// @reelsmith/distributed/internal: the parts the CLI and the studio are built from (a run's
// record and change stamp, its budget and cache as rows, the run directory's mirror). Not a
// stable API: names may change with any release.
export {
  createDatabaseBudget,
  type DatabaseBudgetOptions,
} from "./budget/database-budget.js";
export { createDatabaseCacheIndex } from "./cache/database-cache-index.js";
export { openDatabaseRunCache } from "./cache/database-run-cache.js";
export {
  createDatabaseRowHost,
  type DatabaseRowHostOptions,
  rowRunId,
} from "./client/batch-rows.js";
export { lastEventId } from "./client/follow-run.js";
export {
  type DatabaseRunRecord,
  type RunWorker,
  readRunRecord,
  runChangeStamp,
  runWorkers,
} from "./client/run-record.js";
export { runJsonOf } from "./store/run-directory-mirror.js";
export { artifactsCacheDir } from "./store/run-paths.js";
export type { RunRow } from "./store/run-store.js";
