import type { SerializedError } from "../events/run-event.js";
import { RunCancelledError } from "./run-cancelled-error.js";
import { RunnerError } from "./runner-error.js";
import { StepWaitingError } from "./step-waiting-error.js";

/** An error rebuilt from its data, with what the data said kept as fields. */
class RevivedError extends RunnerError {}

/**
 * Rebuilds an error that travelled as data (a unit's error from another process, a journaled
 * one): a cancellation (`run_cancelled`, or a request the caller aborted) becomes a
 * RunCancelledError again, a step that waits (`step_waiting`) a StepWaitingError; any other keeps its name, message, code, `isRetryable` and fields.
 * @example reviveError({ name: "RateLimitError", code: "rate_limited", message: "…", isRetryable: true }).isRetryable // true
 */
export function reviveError(data: SerializedError): RunnerError {
  if (data.code === "run_cancelled" || data.code === "aborted") {
    return new RunCancelledError(data.message);
  }
  if (data.code === "step_waiting" && typeof data.step === "string") {
    const details = data.details && typeof data.details === "object" ? data.details : {};
    return new StepWaitingError(
      data.step,
      String(data.reason ?? "waits"),
      details as Record<string, unknown>,
    );
  }
  const error = new RevivedError(String(data.code ?? "error"), data.message, {
    isRetryable: data.isRetryable === true,
  });
  for (const [key, value] of Object.entries(data)) {
    if (key !== "isRetryable" && key !== "code" && key !== "message") {
      Object.defineProperty(error, key, { value, enumerable: true, writable: true });
    }
  }
  return error;
}
