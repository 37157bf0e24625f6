import { createEventBus } from "../events/event-bus.js";
import { createEventQueue } from "../events/event-queue.js";
import type { RunEvent } from "../events/run-event.js";
import type { OpenedRun, PrepareSession } from "../executor/run-session.js";
import type { RunOptions, RunResult } from "../run-options.js";
import { runWithBus } from "../run-pipeline.js";

/**
 * Resumes a run for a focused session made by `prepare` from the run the resume loaded (its
 * checks run before any request: a session that cannot be made rejects `result` and nothing
 * is written), yielding its events. A run already opened (`openRun`) goes on from what was
 * read then: its journal is not read again.
 */
export function streamFocused(
  run: string | OpenedRun,
  prepare: PrepareSession,
  options: RunOptions,
): AsyncIterable<RunEvent> & { result: Promise<RunResult> } {
  const queue = createEventQueue();
  const bus = createEventBus(options.onEvent ? { onEvent: options.onEvent } : {});
  bus.subscribe((event) => queue.push(event));
  const opened = typeof run === "string" ? undefined : run;
  const resume = opened ? opened.onDisk.runDir : (run as string);
  const result = runWithBus(undefined, { ...options, resume }, bus, prepare, opened).finally(() =>
    queue.end(),
  );
  result.catch(() => undefined);
  return { [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](), result };
}
