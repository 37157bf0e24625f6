import { closeSync, openSync, writeSync } from "node:fs";
import { nowIso } from "./now-iso.js";
import type { DistributiveOmit, RunEvent, RunEventBody } from "./run-event.js";

/** Receives every event of a run, in order. */
export type RunEventListener = (event: RunEvent) => void;

/** Assigns `seq`/`time` to events, fans them out to listeners and to `events.ndjson`. */
export interface EventBus {
  /** Emit one event (adds `seq` and `time`). Returns the full event. */
  emit(body: DistributiveOmit<RunEvent, "seq" | "time"> | RunEventBody): RunEvent;
  /** Add a listener; returns a function that removes it. */
  subscribe(listener: RunEventListener): () => void;
  /** Start appending each event as one JSON line to `file` (append mode). */
  attachFile(file: string): void;
  /** Close the event log file. */
  close(): void;
}

/**
 * Creates an event bus. Listener errors are swallowed (a renderer must not break a run).
 * @example
 * const bus = createEventBus();
 * bus.subscribe((e) => console.log(e.seq, e.type));
 * bus.emit({ type: "step.start", step: "a" });
 */
export function createEventBus(options: { onEvent?: RunEventListener } = {}): EventBus {
  const listeners = new Set<RunEventListener>();
  if (options.onEvent) listeners.add(options.onEvent);
  let seq = 0;
  let fd: number | undefined;
  // Lines of the event log are gathered and written once per tick (one syscall, not one per event).
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (fd === undefined || pending.length === 0) return;
    // One line per event: their JSON texts joined, not each copied with its newline first.
    const text = `${pending.join("\n")}\n`;
    pending = [];
    writeSync(fd, text);
  };
  return {
    emit(body) {
      seq += 1;
      const event = { seq, time: nowIso(), ...body } as RunEvent;
      if (fd !== undefined) {
        pending.push(JSON.stringify(event));
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A failing listener never breaks the run.
        }
      }
      return event;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    attachFile(file) {
      if (fd === undefined) fd = openSync(file, "a");
    },
    close() {
      flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
