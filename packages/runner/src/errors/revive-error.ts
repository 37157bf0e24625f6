import { type ErrorCategory, errorCategoryOf } from "@reelsmith/core/errors";
import type { SerializedError } from "../events/run-event.js";
import { RunCancelledError } from "./run-cancelled-error.js";
import { RunnerError } from "./runner-error.js";
import { StepWaitingError } from "./step-waiting-error.js";

/**
 * An error rebuilt from its data, with what the data said kept as fields: its code is
 * whatever it carried (a core error's, another package's), not only the runner's own.
 */
class RevivedError extends RunnerError<string> {}

/**
 * The category of errors journaled before errors carried one, by their code (a run read back
 * from such a journal still ends as it did).
 */
const CATEGORY_OF_LEGACY_CODE: Record<string, ErrorCategory> = {
  run_cancelled: "interrupted",
  aborted: "interrupted",
  step_waiting: "waiting",
  budget_reached: "budget",
  approval_rejected: "rejected",
};

/**
 * Rebuilds an error that travelled as data (a unit's error from another process, a journaled
 * one) with its category: an interruption becomes a RunCancelledError again, a step that
 * waits a StepWaitingError; any other keeps its name, message, code, `isRetryable`,
 * `category`, `hint` and fields, so the CLI maps it as it would have mapped the original.
 * @example reviveError({ name: "RateLimitError", code: "rate_limited", message: "…", isRetryable: true, category: "failed" }).isRetryable // true
 */
export function reviveError(data: SerializedError): RunnerError<string> {
  const category =
    data.category === undefined
      ? (CATEGORY_OF_LEGACY_CODE[data.code ?? ""] ?? "failed")
      : errorCategoryOf(data.category);
  if (category === "interrupted") return new RunCancelledError(data.message);
  if (category === "waiting" && typeof data.step === "string") {
    const details = data.details && typeof data.details === "object" ? data.details : {};
    return new StepWaitingError(
      data.step,
      String(data.reason ?? "waits"),
      details as Record<string, unknown>,
    );
  }
  const error = new RevivedError(String(data.code ?? "error"), data.message, {
    isRetryable: data.isRetryable === true,
    category,
    ...(typeof data.hint === "string" ? { hint: data.hint } : {}),
  });
  for (const [key, value] of Object.entries(data)) {
    if (!["isRetryable", "code", "message", "category", "hint"].includes(key)) {
      Object.defineProperty(error, key, { value, enumerable: true, writable: true });
    }
  }
  return error;
}
