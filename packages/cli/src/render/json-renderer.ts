import type { TextSink } from "./redact.js";
import type { Renderer } from "./renderer.js";

/** Options of {@link createJsonRenderer}. */
export interface JsonRendererOptions {
  /** Receives one JSON object per line: the run's events, nothing else. */
  out: TextSink;
  /** Receives the notes (human messages), so that `out` stays pure NDJSON. */
  err: TextSink;
}

/**
 * NDJSON for machines: each run event as one JSON object on its own line of `out`. The run's
 * result is the `run.end` event; notes go to `err` as plain lines.
 *
 * @example
 * const renderer = createJsonRenderer({ out: process.stdout, err: process.stderr });
 */
export function createJsonRenderer(options: JsonRendererOptions): Renderer {
  let ended = false;
  return {
    event(event) {
      if (event.type === "run.end") ended = true;
      options.out.write(`${JSON.stringify(event)}\n`);
    },
    note(message) {
      options.err.write(`${message}\n`);
    },
    end(result) {
      if (ended) return;
      // The run stopped before the runner could emit `run.end` (e.g. it refused to start).
      options.out.write(
        `${JSON.stringify({ type: "run.end", seq: -1, time: new Date().toISOString(), ...result })}\n`,
      );
    },
  };
}
