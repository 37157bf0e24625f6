import type { RunEvent } from "../events/run-event.js";
import type { BatchRowStatus, BatchStatus } from "./batch-store.js";
import type { BatchEstimate } from "./plan-batch.js";

/**
 * An event of a batch: its own (`batch.*`), and every event of its rows' runs with the row's
 * id added (`row`).
 */
export type BatchEvent =
  | {
      type: "batch.start";
      batchId: string;
      batchDir: string;
      name: string;
      resumed: boolean;
      /** Rows in the inputs file. */
      rows: number;
      /** Rows already finished (succeeded), not run again. */
      finished: number;
      /** The estimate of the rows still to run. */
      estimate: BatchEstimate;
      /** Credits the batch's rows spent before this session. */
      spent: number;
      maxCredits?: number;
    }
  | { type: "batch.row.start"; row: string; line: number; runDir: string; resumed: boolean }
  | {
      type: "batch.row.end";
      row: string;
      line: number;
      status: BatchRowStatus;
      credits: number;
      durationMs: number;
      runDir: string;
      final?: string;
      error?: string;
    }
  | { type: "batch.row.skipped"; row: string; line: number; reason: "budget"; message: string }
  | {
      type: "batch.end";
      batchDir: string;
      status: BatchStatus;
      credits: number;
      counts: Partial<Record<BatchRowStatus, number>>;
      durationMs: number;
    }
  | { type: "batch.log"; level: "warn"; message: string }
  | (RunEvent & { row: string });
