// @reelsmith/report: a run directory's report.html (`writeReport`) and a batch directory's
// batch.html (`writeBatchReport`); `readRun` reads a run directory's record. The steps a page
// is made of, for a host that serves it itself, are in `@reelsmith/report/page`.
export { type WriteBatchReportOptions, writeBatchReport } from "./batch/write-batch-report.js";
export { NotARunDirectoryError, type RunJson, type RunRecord, readRun } from "./model/read-run.js";
export {
  type RunEndReport,
  type WriteReportOptions,
  type WriteReportResult,
  writeReport,
  writeRunEndReport,
} from "./write-report.js";
