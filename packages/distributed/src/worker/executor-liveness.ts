import { DBOS } from "@dbos-inc/dbos-sdk";
import type { Pool } from "pg";
import type { Logger } from "../database/pool.js";
import { createSelfFence, fenceClock } from "./self-fence.js";
import { claimDeadWorker, heartbeat } from "./worker-registry.js";

/** Options of {@link startExecutorLiveness}. */
export interface ExecutorLivenessOptions {
  pool: Pool;
  executorId: string;
  /** How often this worker records its heartbeat (`reelsmith.workers.heartbeat_at`). */
  heartbeatIntervalMs: number;
  /** How often it looks for dead workers (and retries a heartbeat that failed). */
  intervalMs: number;
  /** How long the others wait for its heartbeat before judging it dead: it fences itself at half. */
  graceMs: number;
  logger?: Logger | undefined;
}

/**
 * Tells live workers from dead ones by their heartbeats, measured with the database's clock:
 * each worker records `heartbeat_at = now()` every `heartbeatIntervalMs`, and a worker is
 * dead once its last heartbeat is older than its own grace (`grace_ms`, stored with it: by
 * default 3 heartbeats), or once it stopped cleanly. Nothing depends on a session surviving:
 * a database restart ends every session, and every worker, once it reaches the database
 * again, records its heartbeat before it judges anyone. Nobody is judged before the server
 * has been up for a whole grace either (`pg_postmaster_start_time()`), so after a restart
 * every worker gets at least its grace to come back, however long the restart took.
 *
 * A worker fences itself first: once its last recorded heartbeat is older than half its grace,
 * its units start nothing paid and write nothing (`fence`) until a heartbeat is recorded again;
 * then the claims of its units say which are still its own (a hand-over makes them stale).
 *
 * Every `intervalMs` each worker looks at the executors that DBOS says hold PENDING
 * workflows; one judged dead is claimed by one worker (a row update, so no two hand over the
 * same work), and its workflows are re-enqueued on their own queues
 * (`DBOS.resumeWorkflow`): whichever worker dequeues one continues it from its checkpoints.
 * @example const liveness = startExecutorLiveness({ pool, executorId, heartbeatIntervalMs: 5000, intervalMs: 1000 }); liveness.watch();
 */
export function startExecutorLiveness(options: ExecutorLivenessOptions) {
  const { executorId, logger, pool } = options;
  let stopped = false;
  let watching = false;
  let lastBeat = Date.now();
  // Since when the database has been out of reach (undefined while it answers).
  let unreachableSince: number | undefined;
  const beatOnce = async (): Promise<boolean> => {
    const sent = fenceClock();
    try {
      const { recorded, handedOver } = await heartbeat(pool, executorId);
      lastBeat = Date.now();
      if (recorded) fence.renewed(sent);
      if (unreachableSince !== undefined) {
        logger?.warn?.("database reachable again: this worker's heartbeat is recorded, going on", {
          executor: executorId,
          waitedMs: Date.now() - unreachableSince,
        });
        unreachableSince = undefined;
      }
      if (handedOver) {
        logger?.error?.(
          "this worker missed its heartbeats for longer than its grace and its work was handed to other workers: it drops the units it lost and goes on with the rest",
          { executor: executorId },
        );
      }
      return recorded;
    } catch (error) {
      if (unreachableSince === undefined) {
        unreachableSince = Date.now();
        logger?.warn?.("waiting for the database: heartbeat not recorded, retrying", {
          executor: executorId,
          error: (error as Error).message,
        });
      }
      return false;
    }
  };
  // One heartbeat at a time: whoever asks while one is in flight gets its answer.
  let inFlight: Promise<boolean> | undefined;
  const beat = (): Promise<boolean> => {
    inFlight ??= beatOnce().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
  const fence = createSelfFence({
    limitMs: options.graceMs / 2,
    beatNow: beat,
    onChange: (fenced, sinceMs) =>
      fenced
        ? logger?.warn?.(
            "this worker's heartbeat is older than half its grace: it starts nothing paid and writes nothing until it renews it and knows which units are still its own",
            { executor: executorId, heartbeatAgeMs: Math.round(sinceMs) },
          )
        : logger?.warn?.(
            "heartbeat renewed: this worker writes again for the units it still holds",
            {
              executor: executorId,
            },
          ),
  });
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    // Own liveness first: a worker that reaches the database again says it lives before
    // it may judge anyone (and judges nobody while its heartbeat fails).
    const due =
      unreachableSince !== undefined || Date.now() - lastBeat >= options.heartbeatIntervalMs;
    const alive = due ? await beat() : true;
    // Noticed here too, so the fence is logged even while no unit asks.
    fence.fresh();
    if (alive && watching) {
      try {
        await recoverDeadWorkers(pool, executorId, logger);
      } catch (error) {
        logger?.warn?.("liveness check failed, retrying", { error: (error as Error).message });
      }
    }
    if (!stopped) {
      const wait = Math.min(options.intervalMs, options.heartbeatIntervalMs);
      timer = setTimeout(() => void tick(), wait);
      timer.unref();
    }
  };
  timer = setTimeout(() => void tick(), Math.min(options.intervalMs, options.heartbeatIntervalMs));
  timer.unref();
  return {
    /** The worker's own fence (its writes wait while its heartbeat is older than half its grace). */
    fence,
    /** Starts looking for dead workers too (once DBOS is launched). */
    watch(): void {
      watching = true;
    },
    /** Stops looking for dead workers (the heartbeat goes on). */
    unwatch(): void {
      watching = false;
    },
    /** Stops the heartbeat and the checks (its work becomes recoverable once it is marked stopped). */
    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * Claims each executor DBOS says holds PENDING workflows and that is judged dead (one worker
 * wins each claim), and re-enqueues its workflows on their own queues.
 */
async function recoverDeadWorkers(
  pool: ExecutorLivenessOptions["pool"],
  executorId: string,
  logger: ExecutorLivenessOptions["logger"],
): Promise<void> {
  const pending = await DBOS.listWorkflows({
    status: "PENDING",
    loadInput: false,
    loadOutput: false,
  });
  const executors = new Set<string>();
  for (const status of pending) {
    if (status.executorId && status.executorId !== executorId) executors.add(status.executorId);
  }
  for (const other of executors) {
    if (!(await claimDeadWorker(pool, other))) continue;
    // Listed again after the claim: only what the dead worker still holds now.
    const orphans = await DBOS.listWorkflows({
      status: "PENDING",
      executorId: other,
      loadInput: false,
      loadOutput: false,
    });
    logger?.warn?.("recovering the workflows of a stopped worker", {
      executor: other,
      workflows: orphans.length,
    });
    for (const orphan of orphans) {
      await DBOS.resumeWorkflow(orphan.workflowID, {
        ...(orphan.queueName ? { queueName: orphan.queueName } : {}),
      });
    }
  }
}
