import type { RunEvent } from "@reelsmith/runner";
import type { JournalRecord } from "@reelsmith/runner/runs";
import { SCHEMA } from "../database/schema.js";
import { runJsonOf } from "../store/run-directory-mirror.js";
import type { RunRow } from "../store/run-store.js";
import { listWorkers } from "../worker/worker-registry.js";
import type { Coordinator } from "./connect.js";

/** A worker that ran part of a run (its run, a unit or its wait for a decision). */
export interface RunWorker {
  executorId: string;
  /** Where it runs (`unknown` for a worker gone for more than a day). */
  host: string;
  pid: number;
  /** Its heartbeat is within its grace and it has not stopped. */
  live: boolean;
}

/** A run of the database read as a run directory is read, from the tables themselves. */
export interface DatabaseRunRecord {
  run: RunRow;
  /** `run.json` as the run's directory mirrors it. */
  runJson: Record<string, unknown>;
  /** The journal's records, in order. */
  journal: JournalRecord[];
  /** The stored events, in order. */
  events: RunEvent[];
  /** The id of the last of those events (follow the run from here with `eventsAfter`). */
  lastEventId: number;
}

/**
 * Reads a run from the database as its directory's mirror would show it (run.json, the
 * journal, the events), but from the tables, which stay right when a worker dies before it
 * mirrored its last records. Undefined when no such run is stored.
 * @example const record = await readRunRecord(coordinator, runId); record?.journal.length
 */
export async function readRunRecord(
  coordinator: Coordinator,
  runId: string,
): Promise<DatabaseRunRecord | undefined> {
  const run = await coordinator.store.getRun(runId);
  if (!run) return undefined;
  const journal = await coordinator.store.journalRecords(runId);
  const events: RunEvent[] = [];
  let lastEventId = 0;
  for (;;) {
    const batch = await coordinator.store.eventsAfter(runId, lastEventId);
    if (batch.length === 0) break;
    for (const { id, event } of batch) {
      events.push(event);
      lastEventId = id;
    }
  }
  return { run, runJson: runJsonOf(run), journal, events, lastEventId };
}

/**
 * A stamp of runs in the database (one run, or the newest `limit`) that changes whenever any
 * of them changes: its row (status, attempt, cancel mark, end), a journal record or an event
 * written, or a worker found dead or started. One query for the runs, one for the workers.
 * @example if ((await runChangeStamp(coordinator, { runId })) !== before) redraw();
 */
export async function runChangeStamp(
  coordinator: Coordinator,
  options: { runId?: string; limit?: number } = {},
): Promise<string> {
  const runs = await coordinator.pool.query(
    `SELECT r.run_id, r.status, r.attempt, r.cancel_requested, r.ended_at,
       (SELECT COALESCE(MAX(j.id), 0) FROM ${SCHEMA}.journal j WHERE j.run_id = r.run_id) AS journal,
       (SELECT COALESCE(MAX(e.id), 0) FROM ${SCHEMA}.events e WHERE e.run_id = r.run_id) AS events
       FROM ${SCHEMA}.runs r
      WHERE $1::text IS NULL OR r.run_id = $1
      ORDER BY r.created_at DESC LIMIT $2`,
    [options.runId ?? null, options.limit ?? 20],
  );
  const workers = (await listWorkers(coordinator.pool)).map(
    (worker) => `${worker.executorId}:${worker.live}`,
  );
  return JSON.stringify([runs.rows, workers]);
}

/**
 * The workers that ran part of a run: the executors of its workflows (each attempt, each
 * unit, each wait for a decision), with where they run and whether they are live now.
 * @example for (const worker of await runWorkers(coordinator, runId)) console.log(worker.host, worker.live);
 */
export async function runWorkers(coordinator: Coordinator, runId: string): Promise<RunWorker[]> {
  const workflows = [
    ...(await coordinator.dbos.listWorkflows({
      workflow_id_prefix: runId,
      loadInput: false,
      loadOutput: false,
    })),
    ...(await coordinator.dbos.listWorkflows({
      // Its waits for a decision (`approval:RUN:ATTEMPT`) live outside its own prefix.
      workflow_id_prefix: `approval:${runId}:`,
      loadInput: false,
      loadOutput: false,
    })),
  ].filter(
    (workflow) =>
      workflow.workflowID === runId ||
      workflow.workflowID.startsWith(`${runId}:`) ||
      workflow.workflowID.startsWith("approval:"),
  );
  const executors = new Set(
    workflows.map((workflow) => workflow.executorId).filter((id): id is string => Boolean(id)),
  );
  const known = new Map(
    (await listWorkers(coordinator.pool)).map((worker) => [worker.executorId, worker]),
  );
  return [...executors].sort().map((executorId) => {
    const worker = known.get(executorId);
    return {
      executorId,
      host: worker?.host ?? "unknown",
      pid: worker?.pid ?? 0,
      live: worker?.live ?? false,
    };
  });
}
