import type { Pool } from "pg";
import { SCHEMA } from "../database/schema.js";
import { type RunRequest, type RunRow, type StoredRunOptions, toRow } from "./run-row.js";

/**
 * The runs table: a run as enqueued, read back and listed, its status, options and cancel mark.
 * @example const runs = runQueries(pool); await runs.insertRun(request); await runs.getRun(runId);
 */
export function runQueries(pool: Pool) {
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
    /** Sets the run's stored options (a resume with `--auto-approve`). */
    async setOptions(runId: string, options: StoredRunOptions): Promise<void> {
      await pool.query(`UPDATE ${SCHEMA}.runs SET options = $2 WHERE run_id = $1`, [
        runId,
        JSON.stringify(options),
      ]);
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
  };
}
