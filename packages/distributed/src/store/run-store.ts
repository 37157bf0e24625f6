import type { Pool } from "pg";
import { eventQueries } from "./event-queries.js";
import { journalQueries } from "./journal-queries.js";
import { runEndingQueries } from "./run-ending-queries.js";
import { runQueries } from "./run-queries.js";

export type {
  RunAccount,
  RunClientOptions,
  RunRequest,
  RunRow,
  StoredRunOptions,
} from "./run-row.js";

/**
 * Runs, their journals and their events in PostgreSQL: the queries of each table.
 * @example const store = createRunStore(pool); await store.insertRun(request);
 */
export function createRunStore(pool: Pool) {
  return {
    ...runQueries(pool),
    ...runEndingQueries(pool),
    ...journalQueries(pool),
    ...eventQueries(pool),
  };
}

/** The store made by {@link createRunStore}. */
export type RunStore = ReturnType<typeof createRunStore>;
