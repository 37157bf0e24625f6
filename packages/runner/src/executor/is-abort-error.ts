import { APIUserAbortError } from "@reelsmith/core/errors";
import { RunCancelledError } from "../errors/run-cancelled-error.js";

/**
 * True for an error that means "the work was cancelled", not "it failed": the run's own
 * cancellation (every run-wide signal aborts with a RunCancelledError), or a request the
 * client gave up because that signal aborted.
 * @example isAbortError(signal.reason) // true once the run is cancelled
 */
export function isAbortError(error: unknown): boolean {
  return RunCancelledError.isInstance(error) || APIUserAbortError.isInstance(error);
}
