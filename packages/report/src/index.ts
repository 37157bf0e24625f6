// @reelsmith/report: a run directory's report.html (`writeReport`), and the steps it is made
// of for a host that serves the page itself (the studio): read the run (`readRun`), build
// its model (`buildModel`), render the page or its body with the page's script, styles and
// poster frames. A batch directory's batch.html (`writeBatchReport`).
export {
  type BatchReportModel,
  type BatchRowView,
  orderRows,
  renderBatchPage,
} from "./batch/render-batch.js";
export { type WriteBatchReportOptions, writeBatchReport } from "./batch/write-batch-report.js";
export { buildModel } from "./model/build-model.js";
export { NotARunDirectoryError, type RunJson, type RunRecord, readRun } from "./model/read-run.js";
export type { ReportModel, StoryboardCard } from "./model/report-model.js";
export { escapeHtml, formatNumber } from "./render/escape.js";
export { PAGE_SCRIPT } from "./render/page-script.js";
export { renderPage, renderReportBody } from "./render/render-page.js";
export { STYLES } from "./render/styles.js";
export { makeThumbnails } from "./thumbnails.js";
export {
  type RunEndReport,
  type WriteReportOptions,
  type WriteReportResult,
  writeReport,
  writeRunEndReport,
} from "./write-report.js";
