import type { RunEvent } from "./run-event.js";

/** A push-based async iterable of events; `end()` finishes the iteration once drained. */
export interface EventQueue extends AsyncIterable<RunEvent> {
  push(event: RunEvent): void;
  end(): void;
}

/**
 * Creates an unbounded event queue read with `for await`.
 * @example
 * const queue = createEventQueue();
 * queue.push(event); queue.end();
 * for await (const e of queue) handle(e);
 */
export function createEventQueue(): EventQueue {
  const buffer: RunEvent[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  return {
    push(event) {
      if (ended) return;
      buffer.push(event);
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      while (true) {
        const next = buffer.shift();
        if (next) {
          yield next;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
