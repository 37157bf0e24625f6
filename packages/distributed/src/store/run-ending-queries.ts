import type { Pool } from "pg";
import { SCHEMA } from "../database/schema.js";
import { type ClaimFence, claimIsCurrent } from "./unit-claims.js";

/**
 * How a run's attempts end and begin again in the runs table: its next attempt, the one after
 * its gates, a cancel while it waits, its end (with `run.end` journaled in the same transaction).
 * @example const endings = runEndingQueries(pool); await endings.endRun(runId, { status, outputs, totals });
 */
export function runEndingQueries(pool: Pool) {
  return {
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
    /**
     * Ends the run: journals `run.end` and stores its outcome in one transaction, under the
     * run's row lock, which `requestCancel` takes too. A cancel recorded before this ends the
     * run `cancelled` whatever the executor saw (a unit that ended as the cancel landed, a slot
     * cancelled while it waited), and keeps no error; one that comes after finds the run
     * ended. Returns the status stored. With `fence` (the run workflow's claim), only while
     * that claim is current.
     */
    async endRun(
      runId: string,
      end: { status: string; outputs: unknown; totals: unknown; error?: unknown },
      fence?: ClaimFence,
    ): Promise<string> {
      await fence?.ready();
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        // Ended only by the run workflow that holds the run's claim.
        if (fence && !(await claimIsCurrent(client, fence.claim))) fence.stale("end the run");
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
  };
}
