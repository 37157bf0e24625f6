import type { RunEvent } from "@reelsmith/runner";
import { transientStages } from "@reelsmith/runner/internal";
import type { Pool } from "pg";
import { SCHEMA } from "../database/schema.js";

/** Events a follower never needs from the database: progress of high volume, cosmetic. */
const unstored = (event: RunEvent) =>
  event.type === "unit.progress" && transientStages.has(event.stage);

/**
 * The events table: a run's events stored for its followers, and read back after an id.
 * @example const events = eventQueries(pool); await events.appendEvents(runId, batch);
 */
export function eventQueries(pool: Pool) {
  return {
    async appendEvents(runId: string, events: readonly RunEvent[]): Promise<void> {
      const kept = events.filter((event) => !unstored(event));
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
