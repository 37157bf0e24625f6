import type { Pool } from "pg";
import { SCHEMA } from "../database/schema.js";

/** A worker as `status` shows it. */
export interface WorkerInfo {
  executorId: string;
  host: string;
  pid: number;
  version: string;
  concurrency: number;
  queues: string[];
  startedAt: Date;
  heartbeatAt: Date;
  stoppedAt?: Date;
  /** How long it may miss its heartbeat before it is judged dead (ms). */
  graceMs: number;
  /** Its last heartbeat is within its grace (by the database's clock) and it has not stopped. */
  live: boolean;
}

/** How long the rows of workers that are gone are kept (they show who ran what). */
const KEEP_GONE_WORKERS = "1 day";

/** The grace of a row, as an SQL interval. */
const GRACE = "(w.grace_ms * interval '1 millisecond')";

/**
 * Announces a worker (before it takes work, and again with its queues once it serves them)
 * with its grace, and forgets workers gone for more than a day.
 * @example await registerWorker(pool, { executorId, host, pid, version, concurrency, queues, graceMs: 15_000 });
 */
export async function registerWorker(
  pool: Pool,
  worker: Omit<WorkerInfo, "startedAt" | "heartbeatAt" | "stoppedAt" | "live">,
): Promise<void> {
  await pool.query(
    `INSERT INTO ${SCHEMA}.workers (executor_id, host, pid, version, concurrency, queues, grace_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (executor_id) DO UPDATE SET concurrency = EXCLUDED.concurrency,
       queues = EXCLUDED.queues, grace_ms = EXCLUDED.grace_ms, heartbeat_at = now(),
       stopped_at = NULL, handed_over_at = NULL`,
    [
      worker.executorId,
      worker.host,
      worker.pid,
      worker.version,
      worker.concurrency,
      worker.queues,
      Math.round(worker.graceMs),
    ],
  );
  await pool.query(
    `DELETE FROM ${SCHEMA}.workers
      WHERE heartbeat_at < now() - interval '${KEEP_GONE_WORKERS}'`,
  );
}

/**
 * Records that a worker is still there (`heartbeat_at = now()`, the database's clock), and
 * says whether its work was handed over since its previous heartbeat (it was judged dead), and
 * whether it was recorded at all (not before the worker announced itself).
 * @example const { handedOver } = await heartbeat(pool, executorId);
 */
export async function heartbeat(
  pool: Pool,
  executorId: string,
): Promise<{ recorded: boolean; handedOver: boolean }> {
  const result = await pool.query(
    `UPDATE ${SCHEMA}.workers w SET heartbeat_at = now()
      FROM (SELECT executor_id, heartbeat_at AS previous FROM ${SCHEMA}.workers
             WHERE executor_id = $1 FOR UPDATE) p
      WHERE w.executor_id = p.executor_id
      RETURNING (w.handed_over_at IS NOT NULL AND w.handed_over_at > p.previous) AS handed_over`,
    [executorId],
  );
  return { recorded: result.rows.length > 0, handedOver: result.rows[0]?.handed_over === true };
}

/** Records a worker's clean stop (its unfinished work may be handed over at once). */
export async function markStopped(pool: Pool, executorId: string): Promise<void> {
  await pool.query(
    `UPDATE ${SCHEMA}.workers SET stopped_at = now(), heartbeat_at = now() WHERE executor_id = $1`,
    [executorId],
  );
}

/**
 * Claims a dead worker's work for the caller to hand over: true for exactly one caller, and
 * only when the worker stopped cleanly or missed its heartbeat for longer than its grace, by
 * the database's clock, and the server itself has been up for longer than that grace (after
 * a restart, every worker gets its grace to come back). A worker without a row (one gone for
 * more than a day) is dead under the same rule about the server. Claimed again only if the
 * claimant took longer than a grace to hand it over.
 * @example if (await claimDeadWorker(pool, executorId)) resumeItsWorkflows();
 */
export async function claimDeadWorker(pool: Pool, executorId: string): Promise<boolean> {
  await pool.query(
    `INSERT INTO ${SCHEMA}.workers (executor_id, host, pid, version, concurrency, queues, stopped_at)
     VALUES ($1, 'unknown', 0, 'unknown', 0, '{}', now())
     ON CONFLICT (executor_id) DO NOTHING`,
    [executorId],
  );
  // Its units' claims are made stale in the same statement: should it wake, none of its
  // writes lands (a write in flight holds its claim's row, and the hand-over waits for it).
  const result = await pool.query(
    `WITH dead AS (
       UPDATE ${SCHEMA}.workers w SET handed_over_at = now()
        WHERE w.executor_id = $1
          AND (w.stopped_at IS NOT NULL OR w.heartbeat_at < now() - ${GRACE})
          AND pg_postmaster_start_time() < now() - ${GRACE}
          AND (w.handed_over_at IS NULL OR w.handed_over_at < w.heartbeat_at
               OR w.handed_over_at < now() - ${GRACE})
        RETURNING w.executor_id),
     fenced AS (
       UPDATE ${SCHEMA}.claims c SET epoch = c.epoch + 1, executor_id = NULL, claimed_at = now()
        WHERE c.executor_id IN (SELECT executor_id FROM dead))
     SELECT executor_id FROM dead`,
    [executorId],
  );
  return (result.rowCount ?? 0) > 0;
}

/**
 * The workers that announced themselves, newest first, each with whether it is live now: a
 * worker is live while it has not stopped and its last heartbeat is within its grace, by
 * the database's clock. `live: true` lists only those.
 * @example const live = await listWorkers(pool, { live: true });
 */
export async function listWorkers(
  pool: Pool,
  options: { live?: boolean } = {},
): Promise<WorkerInfo[]> {
  const result = await pool.query(
    `SELECT w.*, (w.stopped_at IS NULL AND w.heartbeat_at >= now() - ${GRACE}) AS live
       FROM ${SCHEMA}.workers w
      WHERE w.pid <> 0
      ORDER BY w.started_at DESC`,
  );
  const workers = result.rows.map(
    (row): WorkerInfo => ({
      executorId: String(row.executor_id),
      host: String(row.host),
      pid: Number(row.pid),
      version: String(row.version),
      concurrency: Number(row.concurrency),
      queues: row.queues as string[],
      startedAt: row.started_at as Date,
      heartbeatAt: row.heartbeat_at as Date,
      ...(row.stopped_at ? { stoppedAt: row.stopped_at as Date } : {}),
      graceMs: Number(row.grace_ms),
      live: row.live === true,
    }),
  );
  return options.live ? workers.filter((worker) => worker.live) : workers;
}
