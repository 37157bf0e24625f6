import { setMaxListeners } from "node:events";
import { RunCancelledError } from "../errors/run-cancelled-error.js";

/** A run's own signals, made of its caller's. */
export interface RunSignals {
  /** Aborts every unit at once, with the run's own reason (cancelled). */
  signal: AbortSignal;
  /** A gentle stop: nothing new starts or is paid for; what runs finishes. */
  stop: AbortSignal;
  /** Stops listening to the caller's signals. */
  dispose(): void;
}

/**
 * One run-wide signal that many units listen to (the caller's `signal` aborts it, every unit
 * sees RunCancelledError whatever the caller aborted with), and the gentle stop (`stopSignal`,
 * also stopped by a cancel).
 * @example const { signal, stop, dispose } = runSignals(options.signal, options.stopSignal);
 */
export function runSignals(userSignal?: AbortSignal, stopSignal?: AbortSignal): RunSignals {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const onUserAbort = () =>
    controller.abort(new RunCancelledError("the run was cancelled", { cause: userSignal?.reason }));
  if (userSignal?.aborted) onUserAbort();
  else userSignal?.addEventListener("abort", onUserAbort, { once: true });
  const stopController = new AbortController();
  setMaxListeners(0, stopController.signal);
  const onStop = () =>
    stopController.abort(
      new RunCancelledError("the run was stopped", { cause: stopSignal?.reason }),
    );
  if (stopSignal?.aborted) onStop();
  else stopSignal?.addEventListener("abort", onStop, { once: true });
  const signal = controller.signal;
  signal.addEventListener("abort", () => stopController.abort(signal.reason), { once: true });
  return {
    signal,
    stop: stopController.signal,
    dispose() {
      userSignal?.removeEventListener("abort", onUserAbort);
      stopSignal?.removeEventListener("abort", onStop);
    },
  };
}
