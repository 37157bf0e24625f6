// @reelsmith/report/page: the steps a report is made of, for a host that serves the page
// itself (the studio): build a run's model (`buildModel`, from `readRun`'s record), render
// the page or its body with the page's script, styles and poster frames, and a batch's page.
export {
  type BatchReportModel,
  type BatchRowView,
  orderRows,
  renderBatchPage,
} from "./batch/render-batch.js";
export { buildModel } from "./model/build-model.js";
export type { ReportModel, StoryboardCard } from "./model/report-model.js";
export { escapeHtml, formatNumber } from "./render/escape.js";
export { PAGE_SCRIPT } from "./render/page-script.js";
export { renderPage, renderReportBody } from "./render/render-page.js";
export { STYLES } from "./render/styles.js";
export { makeThumbnails } from "./thumbnails.js";
