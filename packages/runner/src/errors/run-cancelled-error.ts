import { RunnerError } from "./runner-error.js";

/**
 * The run was cancelled (Ctrl-C, `reelsmith cancel`, the caller's signal): the work in hand
 * stops, nothing new is submitted. The reason every run-wide signal aborts with.
 * @example controller.abort(new RunCancelledError("interrupted"));
 */
export class RunCancelledError extends RunnerError {
  constructor(message = "the run was cancelled", options?: { cause?: unknown }) {
    super("run_cancelled", message, { ...options, category: "interrupted" });
  }
}
