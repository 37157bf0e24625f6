import { createEventBus } from "../events/event-bus.js";
import { createEventQueue } from "../events/event-queue.js";
import type { RunEvent } from "../events/run-event.js";
import type { FocusedSession } from "../executor/run-session.js";
import type { RunOptions, RunResult } from "../run-options.js";
import { runWithBus } from "../run-pipeline.js";

/**
 * Resumes a run for a focused session made by `prepare` (its checks run first: a session that
 * cannot be made rejects `result` and nothing is written), yielding its events.
 */
export function streamFocused(
  runDir: string,
  prepare: () => Promise<FocusedSession>,
  options: RunOptions,
): AsyncIterable<RunEvent> & { result: Promise<RunResult> } {
  const queue = createEventQueue();
  const bus = createEventBus(options.onEvent ? { onEvent: options.onEvent } : {});
  bus.subscribe((event) => queue.push(event));
  const result = prepare()
    .then((session) => runWithBus(undefined, { ...options, resume: runDir }, bus, session))
    .finally(() => queue.end());
  result.catch(() => undefined);
  return { [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](), result };
}
