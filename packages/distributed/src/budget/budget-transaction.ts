import type { Pool, PoolClient } from "pg";
import { withReconnect } from "../database/pool.js";
import { SCHEMA } from "../database/schema.js";

/** A row of `reelsmith.budgets`. */
export interface ScopeRow {
  scope: string;
  max_credits: string | null;
  spent: string;
  reserved: string;
}

/**
 * Runs `work` in one transaction; a database restart retries the whole transaction.
 * @example await inTransaction(pool, (client) => client.query("SELECT 1"));
 */
export function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return withReconnect(() => inTransactionOnce(pool, work));
}

async function inTransactionOnce<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Locks budget rows in one order, the scopes' sorted order, which every transaction that
 * changes budgets takes before it changes any: two workers' transactions never wait on each
 * other in a cycle (an UPDATE of several rows would lock them in whatever order it met them).
 * @example const rows = (await lockScopes(client, ["run:r1", "account:a"])).rows;
 */
export function lockScopes(client: PoolClient, scopes: readonly string[]) {
  return client.query<ScopeRow>(
    `SELECT scope, max_credits, spent, reserved FROM ${SCHEMA}.budgets
     WHERE scope = ANY($1) ORDER BY scope FOR UPDATE`,
    [[...new Set(scopes)].sort()],
  );
}
