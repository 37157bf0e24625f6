import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";

/** How often the watched files are looked at (a stat each; cheap). */
const POLL_MS = 150;
/** How often the database is asked (two small queries). */
const DATABASE_POLL_MS = 400;

/** What a live stream follows: the run's new events, and a stamp of everything the page shows. */
export interface LiveSource {
  /** The events (JSON lines, as the runner wrote them) that came since the previous call. */
  take(): string[] | Promise<string[]>;
  /** Changes whenever the page would. */
  stamp(): string | Promise<string>;
}

function fingerprint(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const stat = statSync(file);
        return `${stat.size}:${stat.mtimeMs}`;
      } catch {
        return "-";
      }
    })
    .join("|");
}

/**
 * Server-sent events from a source: each new event goes out as a `run` event, and any change
 * of the source's stamp as a `change` event, so the page redraws. A source that fails (the
 * database restarting) is asked again at the next tick. Stops when the client goes.
 * @example streamLive(response, fileSource("/srv/runs/x", () => "0"), redact, 150);
 */
export async function streamLive(
  response: ServerResponse,
  source: LiveSource,
  redact: (text: string) => string,
  everyMs: number,
): Promise<void> {
  response.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
  });
  response.write("retry: 1000\n\n");
  let last = await Promise.resolve(source.stamp()).catch(() => "");
  let ticking = false;
  const tick = async () => {
    if (ticking) return;
    ticking = true;
    try {
      for (const line of await source.take()) {
        response.write(`event: run\ndata: ${redact(line)}\n\n`);
      }
      const now = await source.stamp();
      if (now !== last) {
        last = now;
        response.write(`event: change\ndata: {}\n\n`);
      }
    } catch {
      // Asked again at the next tick.
    } finally {
      ticking = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  const end = () => clearInterval(timer);
  response.on("close", end);
  response.on("error", end);
}

/**
 * A run directory as a live source, tailing its files: each new line of `events.ndjson` is
 * an event; the stamp covers the event log, the journal, run.json, the lock and `extra` (the
 * studio's own state). Works the same for a run started from a terminal. A new page needs
 * only what happens from now on: the view it loaded shows the rest.
 * @example fileSource("/srv/runs/x", () => String(version))
 */
export function fileSource(runDir: string | undefined, extra: () => string): LiveSource {
  const eventLog = runDir ? join(runDir, "events.ndjson") : undefined;
  const files = runDir
    ? ["events.ndjson", "journal.jsonl", "run.json", "run.lock"].map((name) => join(runDir, name))
    : [];
  let offset = eventLog && existsSync(eventLog) ? statSync(eventLog).size : 0;
  let partial = "";
  return {
    take() {
      if (!eventLog || !existsSync(eventLog)) return [];
      const size = statSync(eventLog).size;
      if (size < offset) offset = 0;
      if (size <= offset) return [];
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
      return lines.map((line) => line.trim()).filter((line) => line !== "");
    },
    stamp: () => `${fingerprint(files)}|${extra()}`,
  };
}

/**
 * Server-sent events of a run directory (see {@link fileSource}), or of the runs list when
 * `runDir` is undefined (then only `extra` is watched).
 * @example streamRunEvents(response, "/srv/runs/x", () => String(version));
 */
export function streamRunEvents(
  response: ServerResponse,
  runDir: string | undefined,
  extra: () => string | Promise<string>,
  redact: (text: string) => string = (text) => text,
): Promise<void> {
  const files = fileSource(runDir, () => "");
  return streamLive(
    response,
    {
      take: () => files.take(),
      stamp: async () => `${files.stamp()}|${await extra()}`,
    },
    redact,
    POLL_MS,
  );
}

/**
 * Server-sent events of a run of the database, followed as `followRun` follows it: its
 * stored events from `afterId` on, and a change whenever its row, journal, events or workers
 * change (a worker that dies leaves the tables right; its directory's mirror may lag).
 * @example streamDatabaseRunEvents(response, { afterId, eventsAfter, stamp }, redact);
 */
export function streamDatabaseRunEvents(
  response: ServerResponse,
  source: {
    afterId: number;
    eventsAfter(afterId: number): Promise<{ id: number; event: unknown }[]>;
    stamp(): Promise<string>;
  },
  redact: (text: string) => string,
): Promise<void> {
  let after = source.afterId;
  return streamLive(
    response,
    {
      async take() {
        const batch = await source.eventsAfter(after);
        for (const { id } of batch) after = id;
        return batch.map(({ event }) => JSON.stringify(event));
      },
      stamp: () => source.stamp(),
    },
    redact,
    DATABASE_POLL_MS,
  );
}
