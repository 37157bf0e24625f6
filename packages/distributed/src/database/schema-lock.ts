import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { DatabaseWaitError } from "../errors/database-wait-error.js";

/**
 * The advisory lock that serialises schema changes. Earlier versions of reelsmith take the same
 * key (`pg_advisory_lock(hashtext('reelsmith.migrate'))`), so two versions that start together
 * during an upgrade never change the schema at once.
 */
export const SCHEMA_LOCK = "reelsmith.migrate";

/** How long start-up waits for the schema lock and for DBOS's launch by default (ms). */
export const DEFAULT_STARTUP_DEADLINE_MS = 120_000;

/** Options of {@link withSchemaLock}. */
export interface SchemaLockOptions {
  /** Give up (DatabaseWaitError) after this long without the lock (default 120 s). */
  deadlineMs?: number;
  signal?: AbortSignal | undefined;
}

/**
 * Runs `work` while `client`'s session holds the schema lock.
 *
 * The lock is only ever tried, never waited for inside the server: a session blocked in
 * `pg_advisory_lock` keeps a transaction open, and DBOS's migrations include
 * `CREATE INDEX CONCURRENTLY`, which waits for every open transaction of the database. A
 * holder migrating DBOS's schema would then wait for the very sessions that wait for it, a
 * cycle PostgreSQL's deadlock detector cannot see. Between tries this session is idle, so
 * nothing anyone runs under the lock ever waits for it.
 * @example await withSchemaLock(client, () => migrateTables(client), { deadlineMs: 60_000 });
 */
export async function withSchemaLock<T>(
  client: pg.Client | pg.PoolClient,
  work: () => Promise<T>,
  options: SchemaLockOptions = {},
): Promise<T> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_STARTUP_DEADLINE_MS;
  const started = Date.now();
  let delay = 25;
  for (;;) {
    options.signal?.throwIfAborted();
    const tried = await client.query<{ locked: boolean }>(
      "SELECT pg_try_advisory_lock(hashtext($1)) AS locked",
      [SCHEMA_LOCK],
    );
    if (tried.rows[0]?.locked) break;
    if (Date.now() - started > deadlineMs) {
      throw new DatabaseWaitError(
        `the schema lock ${SCHEMA_LOCK}${await describeHolder(client)}`,
        Date.now() - started,
      );
    }
    await sleep(delay, undefined, options.signal ? { signal: options.signal } : {});
    delay = Math.min(delay * 2, 500);
  }
  try {
    return await work();
  } finally {
    await client
      .query("SELECT pg_advisory_unlock(hashtext($1))", [SCHEMA_LOCK])
      .catch(() => undefined);
  }
}

/** Who holds the schema lock, as " (held by pid N, application A, state S)", or "". */
async function describeHolder(client: pg.Client | pg.PoolClient): Promise<string> {
  try {
    const holder = await client.query<{ pid: number; application_name: string; state: string }>(
      `SELECT a.pid, a.application_name, a.state
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
          AND l.objid::bigint = (hashtext($1)::bigint & 4294967295)`,
      [SCHEMA_LOCK],
    );
    const row = holder.rows[0];
    if (!row) return "";
    return ` (held by pid ${row.pid}${row.application_name ? `, ${row.application_name}` : ""}, ${row.state})`;
  } catch {
    return "";
  }
}
