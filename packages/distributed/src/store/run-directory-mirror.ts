import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeRecord } from "@reelsmith/runner/internal";
import type { Logger } from "../database/pool.js";
import type { RunRow, RunStore } from "./run-store.js";

/** Writes `text` to `file` through a temporary file and a rename: readers see whole files only. */
function writeAtomic(file: string, text: string): void {
  const temp = `${file}.${process.pid}-${randomBytes(3).toString("hex")}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** `run.json` of a run on many machines, as a local run writes it (never the key). */
export function runJsonOf(run: RunRow): Record<string, unknown> {
  return {
    runId: run.runId,
    name: run.name,
    status: run.endedAt ? run.status : "running",
    pipeline: { path: run.pipelinePath, hash: run.pipelineHash },
    baseURL: run.baseURL,
    inputs: run.inputs,
    startedAt: run.createdAt.toISOString(),
    ...(run.endedAt ? { endedAt: run.endedAt.toISOString() } : {}),
    ...(run.totals ? { totals: run.totals } : {}),
    ...(run.outputs ? { outputs: run.outputs } : {}),
    ...(run.error ? { error: run.error } : {}),
    // The run's state lives in the database: these files are its mirror.
    database: { attempt: run.attempt },
  };
}

/**
 * Mirrors a run's rows into its directory, so that it is a run directory like a local run's:
 * `journal.jsonl` (the journal table's records, in order, encoded as the local journal
 * encodes them), `events.ndjson` (the stored events, in order) and `run.json`. Each file is
 * rewritten whole from the tables, which stay the source of truth, and replaced atomically:
 * a worker killed while mirroring leaves the previous mirror, and the next mirror (by the
 * worker that recovers the run) catches up.
 * @example await mirrorRunDirectory(store, runId);
 */
export async function mirrorRunDirectory(store: RunStore, runId: string): Promise<void> {
  const run = await store.getRun(runId);
  if (!run) return;
  const records = await store.journalRecords(runId);
  const events: string[] = [];
  for (let after = 0; ; ) {
    const batch = await store.eventsAfter(runId, after);
    if (batch.length === 0) break;
    for (const { id, event } of batch) {
      events.push(`${JSON.stringify(event)}\n`);
      after = id;
    }
  }
  mkdirSync(run.runDir, { recursive: true });
  writeAtomic(join(run.runDir, "journal.jsonl"), records.map(encodeRecord).join(""));
  writeAtomic(join(run.runDir, "events.ndjson"), events.join(""));
  writeAtomic(join(run.runDir, "run.json"), `${JSON.stringify(runJsonOf(run), null, 2)}\n`);
}

/**
 * A run's mirror kept up to date as it goes: `request()` asks for a mirror (at a step's end),
 * coalescing requests made while one is written; `settle()` writes the last one and waits
 * for it. A mirror that fails (the database is restarting) is said to the logger and made
 * again at the next request.
 * @example const mirror = createRunMirror(store, runId, logger); mirror.request(); await mirror.settle();
 */
export function createRunMirror(store: RunStore, runId: string, logger?: Logger) {
  let writing: Promise<void> = Promise.resolve();
  let queued = false;
  const request = (): Promise<void> => {
    if (queued) return writing;
    queued = true;
    writing = writing.then(async () => {
      queued = false;
      await mirrorRunDirectory(store, runId).catch((error: Error) =>
        logger?.warn?.("run directory not mirrored, retried at the next step", {
          runId,
          error: error.message,
        }),
      );
    });
    return writing;
  };
  return {
    request: (): void => void request(),
    settle: async (): Promise<void> => {
      await writing;
      await request();
    },
  };
}
