import type { VideoDialect, VideoModelCatalog } from "@reelsmith/core";
import type { RunEvent } from "@reelsmith/runner";
import type { JournalRecord, JournalWriter } from "@reelsmith/runner/internal";
import type { Pool } from "pg";
import { withReconnect } from "../database/pool.js";
import { SCHEMA } from "../database/schema.js";

/** What a run was asked to do (stored when it is enqueued). */
export interface RunRequest {
  runId: string;
  name: string;
  pipelinePath: string;
  pipelineSource: string;
  pipelineHash: string;
  inputs: Record<string, unknown>;
  options: StoredRunOptions;
  service: string;
  baseURL: string;
  runDir: string;
}

/**
 * How the run's workers talk to its service (what a provider profile says of it): stored
 * with the run, so every worker builds the same client. Never the key.
 *
 * @example
 * ```ts
 * const client: RunClientOptions = { dialect: "openai", listsJobs: true, pollIntervalMs: 2000 };
 * ```
 */
export interface RunClientOptions {
  /** The video API's dialect: `reference` (default) or `openai`. */
  dialect?: VideoDialect;
  /** The service answers a repeated Idempotency-Key with the job it made. */
  honoursIdempotencyKeys?: boolean;
  /** `GET /v1/videos` lists the account's jobs (default: tried). */
  listsJobs?: boolean;
  /** Video poll interval (ms). */
  pollIntervalMs?: number;
}

/** Run options that travel with the run (never the API key). */
export interface StoredRunOptions {
  maxCredits?: number;
  cache?: boolean;
  concurrency?: number;
  resubmitLostJobs?: boolean;
  account?: string;
  /** How workers build the run's client (default: core's defaults, the reference dialect). */
  client?: RunClientOptions;
  /** Video models whose limits and params each request is checked against before it is sent. */
  videoModels?: VideoModelCatalog;
  /** Gates (`approve:` steps) are approved by the run itself, by "auto". */
  autoApprove?: boolean;
  /** Let a fan-out the budget cannot wholly pay for make what fits. */
  allowPartial?: boolean;
  /** Other model catalogs (image, speech, transcription), by the profile's section name. */
  catalogs?: Readonly<Record<string, readonly { id: string }[]>>;
  /**
   * How deep the run is among sub-pipelines: 0 (the default) for a run of its own. Its units'
   * sub-pipelines run one level deeper, up to the runner's MAX_SUB_PIPELINE_DEPTH.
   */
  depth?: number;
}

/** A run as `status` lists it. */
export interface RunRow extends RunRequest {
  attempt: number;
  status: string;
  cancelRequested: boolean;
  outputs?: Record<string, unknown>;
  totals?: Record<string, number>;
  error?: { name: string; message: string; code?: string };
  createdAt: Date;
  endedAt?: Date;
}

/** Events a follower never needs from the database (high volume, cosmetic). */
const unstoredEvents = new Set(["chat.delta", "download.progress", "ffmpeg.progress"]);

function toRow(row: Record<string, unknown>): RunRow {
  return {
    runId: String(row.run_id),
    name: String(row.name),
    pipelinePath: String(row.pipeline_path),
    pipelineSource: String(row.pipeline_source),
    pipelineHash: String(row.pipeline_hash),
    inputs: row.inputs as Record<string, unknown>,
    options: row.options as StoredRunOptions,
    service: String(row.service),
    baseURL: String(row.base_url),
    runDir: String(row.run_dir),
    attempt: Number(row.attempt),
    status: String(row.status),
    cancelRequested: row.cancel_requested === true,
    ...(row.outputs ? { outputs: row.outputs as Record<string, unknown> } : {}),
    ...(row.totals ? { totals: row.totals as Record<string, number> } : {}),
    ...(row.error ? { error: row.error as { name: string; message: string } } : {}),
    createdAt: row.created_at as Date,
    ...(row.ended_at ? { endedAt: row.ended_at as Date } : {}),
  };
}

/**
 * Runs, their journals and their events in PostgreSQL.
 * @example const store = createRunStore(pool); await store.insertRun(request);
 */
export function createRunStore(pool: Pool) {
  return {
    async insertRun(request: RunRequest): Promise<void> {
      await pool.query(
        `INSERT INTO ${SCHEMA}.runs (run_id, name, pipeline_path, pipeline_source, pipeline_hash,
           inputs, options, service, base_url, run_dir, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'queued')`,
        [
          request.runId,
          request.name,
          request.pipelinePath,
          request.pipelineSource,
          request.pipelineHash,
          JSON.stringify(request.inputs),
          JSON.stringify(request.options),
          request.service,
          request.baseURL,
          request.runDir,
        ],
      );
    },
    async getRun(runId: string): Promise<RunRow | undefined> {
      const result = await pool.query(`SELECT * FROM ${SCHEMA}.runs WHERE run_id = $1`, [runId]);
      return result.rows[0] ? toRow(result.rows[0]) : undefined;
    },
    async listRuns(limit = 20): Promise<RunRow[]> {
      const result = await pool.query(
        `SELECT * FROM ${SCHEMA}.runs ORDER BY created_at DESC LIMIT $1`,
        [limit],
      );
      return result.rows.map(toRow);
    },
    async setStatus(runId: string, status: string): Promise<void> {
      await pool.query(
        `UPDATE ${SCHEMA}.runs SET status = $2 WHERE run_id = $1 AND ended_at IS NULL`,
        [runId, status],
      );
    },
    async nextAttempt(runId: string): Promise<number> {
      const result = await pool.query(
        `UPDATE ${SCHEMA}.runs SET attempt = attempt + 1, status = 'queued', ended_at = NULL,
           cancel_requested = false, error = NULL
         WHERE run_id = $1 RETURNING attempt`,
        [runId],
      );
      return Number(result.rows[0]?.attempt ?? 1);
    },
    /**
     * Takes a run stopped at its gates in `attempt` on to the next attempt, once: only while
     * it is still that attempt and `waiting` (a recovered wait, or a `resume` that came first,
     * finds it moved on). Returns the attempt the run is now at.
     */
    async continueAfterGates(runId: string, attempt: number): Promise<number> {
      const result = await pool.query(
        `UPDATE ${SCHEMA}.runs SET attempt = attempt + 1, status = 'queued', ended_at = NULL,
           cancel_requested = false, error = NULL
         WHERE run_id = $1 AND attempt = $2 AND status = 'waiting' RETURNING attempt`,
        [runId, attempt],
      );
      if (result.rows[0]) return Number(result.rows[0].attempt);
      const now = await pool.query(`SELECT attempt FROM ${SCHEMA}.runs WHERE run_id = $1`, [runId]);
      return Number(now.rows[0]?.attempt ?? attempt);
    },
    /** Ends a run that waits at its gates in `attempt` as cancelled; false when it no longer waits. */
    async cancelWaiting(runId: string, attempt: number): Promise<boolean> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const updated = await client.query(
          `UPDATE ${SCHEMA}.runs SET status = 'cancelled', ended_at = now()
            WHERE run_id = $1 AND attempt = $2 AND status = 'waiting' RETURNING run_id`,
          [runId, attempt],
        );
        if ((updated.rowCount ?? 0) > 0) {
          await client.query(`INSERT INTO ${SCHEMA}.journal (run_id, record) VALUES ($1, $2)`, [
            runId,
            JSON.stringify({ type: "run.end", status: "cancelled" }),
          ]);
        }
        await client.query("COMMIT");
        return (updated.rowCount ?? 0) > 0;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    /** Sets the run's stored options (a resume with `--auto-approve`). */
    async setOptions(runId: string, options: StoredRunOptions): Promise<void> {
      await pool.query(`UPDATE ${SCHEMA}.runs SET options = $2 WHERE run_id = $1`, [
        runId,
        JSON.stringify(options),
      ]);
    },
    /**
     * Ends the run: journals `run.end` and stores its outcome in one transaction, under the
     * run's row lock, which `requestCancel` takes too. A cancel recorded before this ends the
     * run `cancelled` whatever the executor saw (a unit that ended as the cancel landed, a slot
     * cancelled while it waited), and keeps no error; one that comes after finds the run
     * ended. Returns the status stored.
     */
    async endRun(
      runId: string,
      end: { status: string; outputs: unknown; totals: unknown; error?: unknown },
    ): Promise<string> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const row = await client.query(
          `SELECT cancel_requested, status, ended_at FROM ${SCHEMA}.runs WHERE run_id = $1 FOR UPDATE`,
          [runId],
        );
        if (row.rows[0]?.ended_at) {
          // Already ended (a recovered workflow replaying its end): the first end stands.
          await client.query("COMMIT");
          return String(row.rows[0].status);
        }
        const cancelled = row.rows[0]?.cancel_requested === true;
        const status = cancelled ? "cancelled" : end.status;
        await client.query(`INSERT INTO ${SCHEMA}.journal (run_id, record) VALUES ($1, $2)`, [
          runId,
          JSON.stringify({ type: "run.end", status }),
        ]);
        await client.query(
          `UPDATE ${SCHEMA}.runs SET status = $2, outputs = $3, totals = $4, error = $5, ended_at = now()
           WHERE run_id = $1`,
          [
            runId,
            status,
            JSON.stringify(end.outputs ?? {}),
            JSON.stringify(end.totals ?? {}),
            end.error === undefined || cancelled ? null : JSON.stringify(end.error),
          ],
        );
        await client.query("COMMIT");
        return status;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    /** Marks a run that has not ended as cancelled; false when it had ended (or is unknown). */
    async requestCancel(runId: string): Promise<boolean> {
      const result = await pool.query(
        `UPDATE ${SCHEMA}.runs SET cancel_requested = true
          WHERE run_id = $1 AND ended_at IS NULL RETURNING run_id`,
        [runId],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async cancelRequested(runId: string): Promise<boolean> {
      const result = await pool.query(
        `SELECT cancel_requested FROM ${SCHEMA}.runs WHERE run_id = $1`,
        [runId],
      );
      return result.rows[0]?.cancel_requested === true;
    },
    /**
     * The run's journal as a writer: each record is committed before `append` settles, with
     * its time (as the local journal writes it) and, when given, the worker that wrote it.
     */
    journal(runId: string, stamp: { worker?: string } = {}): JournalWriter {
      return {
        async append(record: JournalRecord) {
          const stamped = {
            ...record,
            ...(stamp.worker && record.worker === undefined ? { worker: stamp.worker } : {}),
            time: record.time ?? new Date().toISOString(),
          };
          // A database restart delays the record; it is never dropped.
          await withReconnect(() =>
            pool.query(`INSERT INTO ${SCHEMA}.journal (run_id, record) VALUES ($1, $2)`, [
              runId,
              JSON.stringify(stamped),
            ]),
          );
        },
      };
    },
    /** The run's journal records, or only one step's (and item's) when `of` is given. */
    async journalRecords(
      runId: string,
      of?: { step: string; index?: number },
    ): Promise<JournalRecord[]> {
      const result = of
        ? await pool.query(
            `SELECT record FROM ${SCHEMA}.journal WHERE run_id = $1 AND record->>'step' = $2
               AND (record->>'index') IS NOT DISTINCT FROM $3 ORDER BY id`,
            [runId, of.step, of.index === undefined ? null : String(of.index)],
          )
        : await pool.query(`SELECT record FROM ${SCHEMA}.journal WHERE run_id = $1 ORDER BY id`, [
            runId,
          ]);
      return result.rows.map((row) => row.record as JournalRecord);
    },
    async appendEvents(runId: string, events: readonly RunEvent[]): Promise<void> {
      const kept = events.filter((event) => !unstoredEvents.has(event.type));
      if (kept.length === 0) return;
      await pool.query(
        `INSERT INTO ${SCHEMA}.events (run_id, event) SELECT $1, unnest($2::jsonb[])`,
        [runId, kept.map((event) => JSON.stringify(event))],
      );
    },
    async eventsAfter(runId: string, afterId: number): Promise<{ id: number; event: RunEvent }[]> {
      const result = await pool.query(
        `SELECT id, event FROM ${SCHEMA}.events WHERE run_id = $1 AND id > $2 ORDER BY id LIMIT 1000`,
        [runId, afterId],
      );
      return result.rows.map((row) => ({ id: Number(row.id), event: row.event as RunEvent }));
    },
  };
}

/** The store made by {@link createRunStore}. */
export type RunStore = ReturnType<typeof createRunStore>;
