import type { JournalWriter } from "@reelsmith/runner/internal";
import type { JournalRecord } from "@reelsmith/runner/runs";
import type { Pool } from "pg";
import { withReconnect } from "../database/pool.js";
import { SCHEMA } from "../database/schema.js";
import { type ClaimFence, claimParams, currentClaimSql } from "./unit-claims.js";

/** A record as a log line names it: "journal video.submitted". */
function describeRecord(record: JournalRecord): string {
  const name = (record as { name?: unknown }).name;
  return `journal ${typeof name === "string" ? name : record.type}`;
}

/**
 * The journal table: a run's journal as a writer, and its records read back.
 * @example const journals = journalQueries(pool); await journals.journal(runId).append(record);
 */
export function journalQueries(pool: Pool) {
  return {
    /**
     * The run's journal as a writer: each record is committed before `append` settles, with
     * its time (as the local journal writes it) and, when given, the worker that wrote it.
     */
    journal(runId: string, stamp: { worker?: string } = {}, fence?: ClaimFence): JournalWriter {
      return {
        async append(record: JournalRecord) {
          const stamped = {
            ...record,
            ...(stamp.worker && record.worker === undefined ? { worker: stamp.worker } : {}),
            time: record.time ?? new Date().toISOString(),
          };
          if (!fence) {
            // A database restart delays the record; it is never dropped.
            await withReconnect(() =>
              pool.query(`INSERT INTO ${SCHEMA}.journal (run_id, record) VALUES ($1, $2)`, [
                runId,
                JSON.stringify(stamped),
              ]),
            );
            return;
          }
          // A unit's record lands only while its claim is current, checked in the same
          // statement (its row locked until the insert commits).
          await fence.ready();
          const inserted = await withReconnect(() =>
            pool.query(
              `WITH claim AS (${currentClaimSql(3)})
               INSERT INTO ${SCHEMA}.journal (run_id, record) SELECT $1, $2 FROM claim`,
              [runId, JSON.stringify(stamped), ...claimParams(fence.claim)],
            ),
          );
          if ((inserted.rowCount ?? 0) === 0) fence.stale(describeRecord(stamped));
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
  };
}
