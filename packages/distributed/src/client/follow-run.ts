import type { RunEvent, RunTotals, SerializedError } from "@reelsmith/runner";
import type { Coordinator } from "./connect.js";

/** How a followed run ended (the shape of the runner's RunResult, steps as events told them). */
export interface FollowedRun {
  status: "succeeded" | "failed" | "cancelled";
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
  } = {},
): Promise<FollowedRun> {
  const started = Date.now();
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
    options.onEvent?.({ ...event, seq } as RunEvent);
  };
  for (;;) {
    options.signal?.throwIfAborted();
    let batch: Awaited<ReturnType<Coordinator["store"]["eventsAfter"]>> = [];
    try {
      batch = await coordinator.store.eventsAfter(runId, last);
    } catch {
      // The database is restarting: keep following.
    }
    for (const { id, event } of batch) {
      last = id;
      deliver(event);
    }
    if (batch.length === 0) {
      const run = await coordinator.store.getRun(runId).catch(() => undefined);
      if (run?.endedAt) {
        // Events written with the end are read once more before returning.
        const tail = await coordinator.store.eventsAfter(runId, last).catch(() => []);
        for (const { id, event } of tail) {
          last = id;
          deliver(event);
        }
        const status =
          run.status === "succeeded" || run.status === "cancelled" ? run.status : "failed";
        return {
          status,
          runId,
          runDir: run.runDir,
          outputs: run.outputs ?? {},
          totals: (run.totals ?? {}) as unknown as RunTotals,
          ...(run.error ? { error: run.error as SerializedError } : {}),
          durationMs: Date.now() - started,
          steps,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 100));
    }
  }
}

/** The id of the run's newest stored event (follow a resumed run from here). */
export async function lastEventId(coordinator: Coordinator, runId: string): Promise<number> {
  const result = await coordinator.pool.query(
    "SELECT COALESCE(MAX(id), 0) AS id FROM reelsmith.events WHERE run_id = $1",
    [runId],
  );
  return Number(result.rows[0]?.id ?? 0);
}
