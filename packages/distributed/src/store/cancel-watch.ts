import { setMaxListeners } from "node:events";
import { RunCancelledError } from "@reelsmith/runner/errors";
import type { RunStore } from "./run-store.js";

/**
 * An AbortSignal that aborts once `reelsmith cancel` marked the run (checked every
 * `intervalMs`, and at once through `check()`; a failed check, such as a database restart, is
 * tried again next time).
 * @example const watch = watchCancel(store, runId); await work(watch.signal); watch.stop();
 */
export function watchCancel(
  store: RunStore,
  runId: string,
  intervalMs = 250,
): { signal: AbortSignal; check(): Promise<boolean>; stop(): void } {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const check = async (): Promise<boolean> => {
    if (controller.signal.aborted) return true;
    try {
      if (await store.cancelRequested(runId)) {
        controller.abort(new RunCancelledError(`run ${runId} was cancelled`));
      }
    } catch {
      // Next time.
    }
    return controller.signal.aborted;
  };
  const timer = setInterval(() => {
    if (!controller.signal.aborted) void check();
  }, intervalMs);
  timer.unref();
  void check();
  return {
    signal: controller.signal,
    /** Looks now (a unit ended cancelled: the run's own signal must not lag behind it). */
    check,
    stop: () => clearInterval(timer),
  };
}
