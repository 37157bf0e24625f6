import type { Pool } from "pg";
import { SCHEMA } from "../database/schema.js";
import { LIVENESS_LOCK_SPACE } from "./executor-liveness.js";

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
  /** Holds its liveness lock now: its process and its database session are alive. */
  live: boolean;
}

/** How long the rows of workers that are gone are kept (they show who ran what). */
const KEEP_GONE_WORKERS = "1 day";

/**
 * Announces a worker (once it takes work) and forgets workers gone for more than a day.
 * @example await registerWorker(pool, { executorId, host, pid, version, concurrency, queues });
 */
export async function registerWorker(
  pool: Pool,
  worker: Omit<WorkerInfo, "startedAt" | "heartbeatAt" | "stoppedAt" | "live">,
): Promise<void> {
  await pool.query(
    `INSERT INTO ${SCHEMA}.workers (executor_id, host, pid, version, concurrency, queues)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (executor_id) DO UPDATE SET concurrency = EXCLUDED.concurrency,
       queues = EXCLUDED.queues, heartbeat_at = now(), stopped_at = NULL`,
    [worker.executorId, worker.host, worker.pid, worker.version, worker.concurrency, worker.queues],
  );
  await pool.query(
    `DELETE FROM ${SCHEMA}.workers
      WHERE heartbeat_at < now() - interval '${KEEP_GONE_WORKERS}'`,
  );
}

/** Records that a worker is still there (its last heartbeat, as `status` shows it). */
export async function heartbeat(pool: Pool, executorId: string): Promise<void> {
  await pool.query(`UPDATE ${SCHEMA}.workers SET heartbeat_at = now() WHERE executor_id = $1`, [
    executorId,
  ]);
}

/** Records a worker's clean stop. */
export async function markStopped(pool: Pool, executorId: string): Promise<void> {
  await pool.query(
    `UPDATE ${SCHEMA}.workers SET stopped_at = now(), heartbeat_at = now() WHERE executor_id = $1`,
    [executorId],
  );
}

/**
 * The workers that announced themselves, newest first, each with whether it is live now: a
 * worker is live while its session holds its liveness lock, which the server drops the moment
 * the process or its connection dies (no clock involved). `live: true` lists only those.
 * @example const live = await listWorkers(pool, { live: true });
 */
export async function listWorkers(
  pool: Pool,
  options: { live?: boolean } = {},
): Promise<WorkerInfo[]> {
  const result = await pool.query(
    `SELECT w.*, EXISTS (
         SELECT 1 FROM pg_locks l
          WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
            AND l.classid::bigint = (hashtext($1)::bigint & 4294967295)
            AND l.objid::bigint = (hashtext(w.executor_id)::bigint & 4294967295)
       ) AS live
       FROM ${SCHEMA}.workers w
      ORDER BY w.started_at DESC`,
    [LIVENESS_LOCK_SPACE],
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
      live: row.live === true,
    }),
  );
  return options.live ? workers.filter((worker) => worker.live) : workers;
}
