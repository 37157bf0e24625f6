import { setMaxListeners } from "node:events";
import type { RunStore } from "./run-store.js";

/**
 * An AbortSignal that aborts once `reelsmith cancel` marked the run (checked every
 * `intervalMs`; a failed check, such as a database restart, is tried again next time).
 * @example const watch = watchCancel(store, runId); await work(watch.signal); watch.stop();
 */
export function watchCancel(
  store: RunStore,
  runId: string,
  intervalMs = 250,
): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const check = async () => {
    try {
      if (await store.cancelRequested(runId)) {
        controller.abort(
          Object.assign(new Error(`run ${runId} was cancelled`), { name: "AbortError" }),
        );
      }
    } catch {
      // Next time.
    }
  };
  const timer = setInterval(() => {
    if (!controller.signal.aborted) void check();
  }, intervalMs);
  timer.unref();
  void check();
  return {
    signal: controller.signal,
    stop: () => clearInterval(timer),
  };
}
