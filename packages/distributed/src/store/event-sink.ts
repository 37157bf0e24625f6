import type { RunEvent } from "@reelsmith/runner";
import type { Logger } from "../database/pool.js";
import type { RunStore } from "./run-store.js";

/**
 * Collects a run's events and writes them to the database in batches (every `intervalMs`,
 * and on `flush()`), so that a follower on another machine sees the same progress.
 * Losing a batch (the database is restarting) loses display lines, never run state.
 * @example const sink = createEventSink(store, runId); bus.subscribe(sink.push); await sink.flush();
 */
export function createEventSink(store: RunStore, runId: string, logger?: Logger, intervalMs = 100) {
  let pending: RunEvent[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const write = () => {
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return writing;
    writing = writing
      .then(() => store.appendEvents(runId, batch))
      .catch((error: Error) =>
        logger?.warn?.("events not written", { runId, error: error.message }),
      );
    return writing;
  };
  return {
    push: (event: RunEvent): void => {
      pending.push(event);
      timer ??= setTimeout(write, intervalMs);
    },
    flush: async (): Promise<void> => {
      if (timer) clearTimeout(timer);
      await write();
    },
  };
}
