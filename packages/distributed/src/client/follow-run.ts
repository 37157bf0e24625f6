import type { RunEvent, RunStatus, RunTotals, SerializedError } from "@reelsmith/runner";
import { emptyTotals } from "@reelsmith/runner/internal";
import { listWorkers } from "../worker/worker-registry.js";
import { runWorkflowId } from "../workflows/unit-job.js";
import { terminalStatuses } from "../workflows/workflow-watch.js";
import type { Coordinator } from "./connect.js";

/** What {@link followRun} reports while no live worker is there to take the run's work. */
export interface NoWorkerNotice {
  /** How long no live worker has been seen (ms). */
  sinceMs: number;
  /** Notices so far, this one included. */
  count: number;
}

/** What {@link followRun} reports when the database stops answering, and when it answers again. */
export interface DatabaseWaitNotice {
  /** True when the database stopped answering; false once it answers again. */
  waiting: boolean;
  /** How long it did not answer (ms; 0 when it just stopped). */
  waitedMs: number;
}

/** How a followed run ended (the shape of the runner's RunResult, steps as events told them). */
export interface FollowedRun {
  status: RunStatus;
  runId: string;
  runDir: string;
  outputs: Record<string, unknown>;
  totals: RunTotals;
  error?: SerializedError;
  durationMs: number;
  /** Each step's end as its events told it. */
  steps: Record<string, { status: string; outputs: unknown; error?: SerializedError }>;
}

/**
 * Follows a run from the database: passes each event its workers wrote to `onEvent`, in the
 * order they were stored, until the run ends. `signal` stops following (the run goes on).
 * Events written before `afterEventId` are skipped (a resumed run's earlier attempts).
 * @example const result = await followRun(coordinator, runId, { onEvent: render });
 */
export async function followRun(
  coordinator: Coordinator,
  runId: string,
  options: {
    onEvent?: (event: RunEvent) => void;
    signal?: AbortSignal;
    pollIntervalMs?: number;
    afterEventId?: number;
    /**
     * Called when no live worker has been seen for `noWorkerAfterMs` (default 3 s) while the
     * run has not ended, and again every `noWorkerEveryMs` (default 60 s) while that lasts.
     */
    onNoWorker?: (notice: NoWorkerNotice) => void;
    noWorkerAfterMs?: number;
    noWorkerEveryMs?: number;
    /**
     * How long to wait, once the run has ended, for its workflow to end too (its run
     * directory's last mirror and report.html written; default 60 s).
     */
    settleTimeoutMs?: number;
    /** Called when the database stops answering (a restart), and once it answers again. */
    onDatabaseWait?: (notice: DatabaseWaitNotice) => void;
  } = {},
): Promise<FollowedRun> {
  let unreachableSince: number | undefined;
  const reached = () => {
    if (unreachableSince === undefined) return;
    options.onDatabaseWait?.({ waiting: false, waitedMs: Date.now() - unreachableSince });
    unreachableSince = undefined;
  };
  const started = Date.now();
  const watchWorkers = options.onNoWorker ? noWorkerWatch(coordinator, options) : undefined;
  let last = options.afterEventId ?? 0;
  let seq = 0;
  const steps: FollowedRun["steps"] = {};
  const deliver = (event: RunEvent) => {
    seq += 1;
    if (event.type === "step.end")
      steps[event.step] = { status: "succeeded", outputs: event.outputs };
    if (event.type === "step.skip") steps[event.step] = { status: "skipped", outputs: {} };
    if (event.type === "step.fail")
      steps[event.step] = { status: "failed", outputs: {}, error: event.error };
    if (event.type === "step.wait") steps[event.step] = { status: "waiting", outputs: {} };
    options.onEvent?.({ ...event, seq } as RunEvent);
  };
  for (;;) {
    options.signal?.throwIfAborted();
    let batch: Awaited<ReturnType<Coordinator["store"]["eventsAfter"]>> = [];
    try {
      batch = await coordinator.store.eventsAfter(runId, last);
      reached();
    } catch {
      // The database is restarting: say so once, and keep following.
      if (unreachableSince === undefined) {
        unreachableSince = Date.now();
        options.onDatabaseWait?.({ waiting: true, waitedMs: 0 });
      }
    }
    for (const { id, event } of batch) {
      last = id;
      deliver(event);
    }
    if (batch.length === 0 && unreachableSince !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 100));
      continue;
    }
    if (batch.length === 0) {
      const run = await coordinator.store.getRun(runId).catch(() => undefined);
      if (run?.endedAt) {
        // Its workflow ends after the run: once it has written the run directory's last
        // mirror and its report.html, and the events that came with the end.
        await untilWorkflowEnded(coordinator, runWorkflowId(runId, run.attempt), {
          forMs: options.settleTimeoutMs ?? 60_000,
          pollIntervalMs: options.pollIntervalMs ?? 100,
          signal: options.signal,
        });
        // Events written with the end are read once more before returning.
        const tail = await coordinator.store.eventsAfter(runId, last).catch(() => []);
        for (const { id, event } of tail) {
          last = id;
          deliver(event);
        }
        const known: readonly string[] = [
          "succeeded",
          "cancelled",
          "budget_reached",
          "waiting",
          "rejected",
        ];
        const status = known.includes(run.status) ? (run.status as RunStatus) : "failed";
        return {
          status,
          runId,
          runDir: run.runDir,
          outputs: run.outputs ?? {},
          totals: { ...emptyTotals(), ...run.totals },
          ...(run.error ? { error: run.error as SerializedError } : {}),
          durationMs: Date.now() - started,
          steps,
        };
      }
      await watchWorkers?.();
      await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 100));
    }
  }
}

/**
 * Waits until a workflow has ended (any terminal status), has no row (a run ended without
 * one, as a cancelled wait is), or `forMs` has passed.
 */
async function untilWorkflowEnded(
  coordinator: Coordinator,
  workflowID: string,
  options: { forMs: number; pollIntervalMs: number; signal: AbortSignal | undefined },
): Promise<void> {
  const deadline = Date.now() + options.forMs;
  while (Date.now() < deadline) {
    options.signal?.throwIfAborted();
    const found = await coordinator.dbos
      .listWorkflows({ workflowIDs: [workflowID], loadInput: false, loadOutput: false })
      .catch(() => undefined);
    if (found && (found.length === 0 || terminalStatuses.has(found[0]?.status ?? ""))) return;
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs));
  }
}

/** A check, called between polls, that tells `onNoWorker` when no live worker is there. */
function noWorkerWatch(
  coordinator: Coordinator,
  options: {
    onNoWorker?: (notice: NoWorkerNotice) => void;
    noWorkerAfterMs?: number;
    noWorkerEveryMs?: number;
  },
): () => Promise<void> {
  const afterMs = options.noWorkerAfterMs ?? 3000;
  const everyMs = options.noWorkerEveryMs ?? 60_000;
  let noneSince: number | undefined;
  let lastNotice: number | undefined;
  let lastCheck = 0;
  let count = 0;
  return async () => {
    const now = Date.now();
    // Looked up at most once a second: it is one small query.
    if (now - lastCheck < Math.min(1000, afterMs)) return;
    lastCheck = now;
    const live = await listWorkers(coordinator.pool, { live: true }).catch(() => undefined);
    if (live === undefined) return;
    if (live.length > 0) {
      noneSince = undefined;
      lastNotice = undefined;
      return;
    }
    noneSince ??= now;
    const due = lastNotice === undefined ? noneSince + afterMs : lastNotice + everyMs;
    if (now < due) return;
    lastNotice = now;
    count += 1;
    options.onNoWorker?.({ sinceMs: now - noneSince, count });
  };
}

/** The id of the run's newest stored event (follow a resumed run from here). */
export async function lastEventId(coordinator: Coordinator, runId: string): Promise<number> {
  const result = await coordinator.pool.query(
    "SELECT COALESCE(MAX(id), 0) AS id FROM reelsmith.events WHERE run_id = $1",
    [runId],
  );
  return Number(result.rows[0]?.id ?? 0);
}
