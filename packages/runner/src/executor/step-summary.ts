import type { RunTotals, SerializedError } from "../events/run-event.js";

/** How one step ended. */
export interface StepSummary {
  status: "succeeded" | "failed" | "skipped" | "cancelled" | "waiting";
  kind: string;
  outputs: unknown;
  durationMs: number;
  totals: RunTotals;
  cached: boolean;
  /** True when resume reused the step's journaled result. */
  reused?: boolean;
  error?: SerializedError;
  /** For a failed step with continue_on_error. */
  continued?: boolean;
  /**
   * For a `waiting` step: what it waits for, and the gate it waits behind when it depends on
   * one (`on`); a gate itself has no `on`.
   */
  waiting?: { reason: string; on?: string; details?: Record<string, unknown> };
}
