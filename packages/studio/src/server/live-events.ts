import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";

/** How often the watched files are looked at (a stat each; cheap). */
const POLL_MS = 150;

function fingerprint(files: readonly string[], extra: () => string): string {
  const parts = files.map((file) => {
    try {
      const stat = statSync(file);
      return `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return "-";
    }
  });
  return `${parts.join("|")}|${extra()}`;
}

/**
 * Server-sent events of a run directory, tailing its files: each new line of
 * `events.ndjson` goes out as an `run` event (the runner's own event, as written), and any
 * change of the event log, the journal, run.json, the lock or the studio's own session state
 * (`extra`) as a `change` event, so the page redraws. Works the same for a run started from
 * a terminal. Stops when the client goes.
 * @example streamRunEvents(response, "/srv/runs/x", () => String(version));
 */
export function streamRunEvents(
  response: ServerResponse,
  runDir: string | undefined,
  extra: () => string,
  redact: (text: string) => string = (text) => text,
): void {
  response.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
  });
  response.write("retry: 1000\n\n");
  const eventLog = runDir ? join(runDir, "events.ndjson") : undefined;
  const files = runDir
    ? ["events.ndjson", "journal.jsonl", "run.json", "run.lock"].map((name) => join(runDir, name))
    : [];
  // A new page needs only what happens from now on: the view it loaded shows the rest.
  let offset = eventLog && existsSync(eventLog) ? statSync(eventLog).size : 0;
  let partial = "";
  let last = fingerprint(files, extra);
  const tick = () => {
    if (eventLog && existsSync(eventLog)) {
      const size = statSync(eventLog).size;
      if (size < offset) offset = 0;
      if (size > offset) {
        const buffer = Buffer.alloc(size - offset);
        const fd = openSync(eventLog, "r");
        try {
          readSync(fd, buffer, 0, buffer.length, offset);
        } finally {
          closeSync(fd);
        }
        offset = size;
        const lines = (partial + buffer.toString("utf8")).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) {
          if (line.trim() !== "") response.write(`event: run\ndata: ${redact(line.trim())}\n\n`);
        }
      }
    }
    const now = fingerprint(files, extra);
    if (now !== last) {
      last = now;
      response.write(`event: change\ndata: {}\n\n`);
    }
  };
  const timer = setInterval(tick, POLL_MS);
  const end = () => clearInterval(timer);
  response.on("close", end);
  response.on("error", end);
}
