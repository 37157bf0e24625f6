// @reelsmith/runner/batch: one run per row of an inputs file, under one estimate and one
// budget; the batch's state on disk.
// @example
// import { runBatch } from "@reelsmith/runner/batch";
export type { BatchEvent } from "./batch/batch-event.js";
export type {
  BatchRowHost,
  BatchRowOutcome,
  BatchRowRequest,
} from "./batch/batch-row-host.js";
export type { BatchRowProblem } from "./batch/batch-rows-error.js";
export {
  type BatchJson,
  type BatchRowState,
  type BatchRowStatus,
  type BatchStatus,
  batchPath,
  isBatchDirectory,
  readBatchJson,
} from "./batch/batch-store.js";
export { type BatchEstimate, type PlannedRow, planRows } from "./batch/plan-batch.js";
export { type BatchRow, readRows } from "./batch/read-rows.js";
export {
  type BatchOptions,
  type BatchResult,
  resumeBatch,
  runBatch,
} from "./batch/run-batch.js";
