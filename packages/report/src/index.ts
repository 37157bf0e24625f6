export { buildModel, runFile, thumbnailPath } from "./model/build-model.js";
export { buildTimeline } from "./model/build-timeline.js";
export { NotARunDirectoryError, type RunJson, type RunRecord, readRun } from "./model/read-run.js";
export type * from "./model/report-model.js";
export { escapeHtml } from "./render/escape.js";
export { contentSecurityPolicy, renderPage } from "./render/render-page.js";
export { makeThumbnails, THUMBNAIL_WIDTH } from "./thumbnails.js";
export { type WriteReportOptions, type WriteReportResult, writeReport } from "./write-report.js";
