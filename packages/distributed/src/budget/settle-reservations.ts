import type { PoolClient } from "pg";
import { SCHEMA } from "../database/schema.js";
import { lockScopes } from "./budget-transaction.js";
import { dropProbes, learnFromProbe } from "./learnt-prices.js";

/**
 * Charges `amount` credits, in the caller's transaction: to the scopes of the submission's
 * reservation (its estimate no longer held), else to `scopes`. A reservation already spent is
 * charged once. A job sent to learn its kind's price teaches it to every worker.
 * @example await spendReserved(client, { runId, scopes }, 12, "reelsmith-r1-clips-0-");
 */
export async function spendReserved(
  client: PoolClient,
  owner: { runId: string; scopes: readonly string[] },
  amount: number,
  key: string | undefined,
): Promise<void> {
  const found = key
    ? await client.query<{ scopes: string[]; estimate: string; state: string }>(
        `SELECT scopes, estimate, state FROM ${SCHEMA}.reservations WHERE key = $1 FOR UPDATE`,
        [key],
      )
    : undefined;
  const row = found?.rows[0];
  if (row?.state === "spent") return;
  const held = row?.state === "reserved" ? Number(row.estimate) : 0;
  const charged = row?.scopes ?? owner.scopes;
  await lockScopes(client, charged);
  await client.query(
    `UPDATE ${SCHEMA}.budgets SET spent = spent + $2, reserved = GREATEST(0, reserved - $3)
     WHERE scope = ANY($1)`,
    [charged, amount, held],
  );
  if (key) {
    await client.query(
      `INSERT INTO ${SCHEMA}.reservations (key, run_id, scopes, estimate, credits, state)
       VALUES ($1, $2, $3, 0, $4, 'spent')
       ON CONFLICT (key) DO UPDATE SET credits = EXCLUDED.credits, state = 'spent'`,
      [key, owner.runId, charged, amount],
    );
    // A job sent to learn its kind's price teaches it to every worker and later run.
    await learnFromProbe(client, key, amount);
  }
}

/**
 * Releases one submission's reservation, in the caller's transaction: its job will not
 * complete, so the next job of its kind learns the price instead.
 * @example await releaseReservation(client, "reelsmith-r1-clips-0-…");
 */
export async function releaseReservation(client: PoolClient, key: string): Promise<void> {
  const found = await client.query<{ scopes: string[]; estimate: string }>(
    `SELECT scopes, estimate FROM ${SCHEMA}.reservations
     WHERE key = $1 AND state = 'reserved' FOR UPDATE`,
    [key],
  );
  const row = found.rows[0];
  if (row) {
    await lockScopes(client, row.scopes);
    await client.query(
      `UPDATE ${SCHEMA}.budgets SET reserved = GREATEST(0, reserved - $2) WHERE scope = ANY($1)`,
      [row.scopes, Number(row.estimate)],
    );
    await client.query(`UPDATE ${SCHEMA}.reservations SET state = 'released' WHERE key = $1`, [
      key,
    ]);
  }
  // Its job will not complete: the next job of its kind learns the price instead.
  await dropProbes(client, [key]);
}

/**
 * Releases every open reservation of a run whose key starts with `keyPrefix`, in the caller's
 * transaction (submissions whose jobs never completed).
 * @example await releaseOpenReservations(client, runId, `reelsmith-${runId}-clips-0-`);
 */
export async function releaseOpenReservations(
  client: PoolClient,
  runId: string,
  keyPrefix: string,
): Promise<void> {
  const open = await client.query<{ key: string; scopes: string[]; estimate: string }>(
    `SELECT key, scopes, estimate FROM ${SCHEMA}.reservations
     WHERE run_id = $1 AND state = 'reserved' AND starts_with(key, $2) FOR UPDATE`,
    [runId, keyPrefix],
  );
  await lockScopes(
    client,
    open.rows.flatMap((row) => row.scopes),
  );
  for (const row of open.rows) {
    await client.query(
      `UPDATE ${SCHEMA}.budgets SET reserved = GREATEST(0, reserved - $2) WHERE scope = ANY($1)`,
      [row.scopes, Number(row.estimate)],
    );
    await client.query(`UPDATE ${SCHEMA}.reservations SET state = 'released' WHERE key = $1`, [
      row.key,
    ]);
  }
  await dropProbes(
    client,
    open.rows.map((row) => row.key),
  );
}
