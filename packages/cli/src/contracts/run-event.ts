import type { RunResult, RunTotals } from "@reelsmith/runner";

export type {
  ResumeReason,
  RunEstimate,
  RunEvent,
  RunEventOf,
  RunStatus,
  RunTotals,
  SerializedError,
} from "@reelsmith/runner";

/**
 * The part of the runner's RunResult the renderers read (so a renderer can also close a run
 * that never produced a full result).
 *
 * @example
 * const view: RunResultView = await stream.result;
 */
export type RunResultView = Pick<
  RunResult,
  "status" | "runDir" | "outputs" | "totals" | "error" | "durationMs"
> & {
  /** The run's report.html, when it was written. */
  report?: string;
  /**
   * How each step ended and what it spent, as the run's ledger says: the figures of a step
   * the run stopped in the middle of (no `step.end`), for the closing table.
   */
  steps?: Record<string, { status: string; totals?: RunTotals }>;
};
