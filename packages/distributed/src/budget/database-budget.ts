import { BudgetExceededError, RunCancelledError } from "@reelsmith/runner";
import type { BudgetRequest, CreditBudget } from "@reelsmith/runner/internal";
import type { Pool, PoolClient } from "pg";
import { withReconnect } from "../database/pool.js";
import { SCHEMA } from "../database/schema.js";
import { budgetScopes } from "../service.js";
import { estimateVideoCredits } from "./estimate-credits.js";

/** Where a run's budget lives: its scopes (the run, the service account) and the run id. */
export interface DatabaseBudgetOptions {
  pool: Pool;
  runId: string;
  /** Budget scopes checked and charged together (e.g. `run:<id>`, `account:<service>`). */
  scopes: string[];
  /** The run's own maximum (kept in the `run:<id>` scope), for the error message. */
  maxCredits: number | undefined;
  pixelSecondsPerCredit?: number;
  onReached?: (spent: number, maxCredits: number) => void;
}

interface ScopeRow {
  scope: string;
  max_credits: string | null;
  spent: string;
  reserved: string;
}

/** Runs `work` in one transaction; a database restart retries the whole transaction. */
function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
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
 */
function lockScopes(client: PoolClient, scopes: readonly string[]) {
  return client.query<ScopeRow>(
    `SELECT scope, max_credits, spent, reserved FROM ${SCHEMA}.budgets
     WHERE scope = ANY($1) ORDER BY scope FOR UPDATE`,
    [[...new Set(scopes)].sort()],
  );
}

/**
 * The refusal of a run's budget, when one of its submissions was refused: the run's spent
 * credits and maximum. A unit's own refusal fails the unit; this catches the others.
 * @example const refusal = await budgetRefusal(pool, runId); // { spent: 12, maxCredits: 12 }
 */
export async function budgetRefusal(
  pool: Pool,
  runId: string,
): Promise<{ spent: number; maxCredits: number } | undefined> {
  // The run's own budget when it has a maximum, else the account's that refused.
  const found = await pool.query<{ spent: string; max_credits: string }>(
    `SELECT b.spent, b.max_credits FROM ${SCHEMA}.reservations r
     JOIN ${SCHEMA}.budgets b ON b.scope = ANY(r.scopes) AND b.max_credits IS NOT NULL
     WHERE r.run_id = $1 AND r.state = 'refused'
     ORDER BY b.scope = $2 DESC LIMIT 1`,
    [runId, budgetScopes.run(runId)],
  );
  const row = found.rows[0];
  if (!row) return undefined;
  return { spent: Number(row.spent), maxCredits: Number(row.max_credits) };
}

/**
 * Sets (or clears) the maximum of a budget scope, creating it when missing.
 * @example await setBudget(pool, "account:3f2a…", 5000);
 */
export async function setBudget(
  pool: Pool,
  scope: string,
  maxCredits: number | null,
): Promise<void> {
  await pool.query(
    `INSERT INTO ${SCHEMA}.budgets (scope, max_credits) VALUES ($1, $2)
     ON CONFLICT (scope) DO UPDATE SET max_credits = EXCLUDED.max_credits`,
    [scope, maxCredits],
  );
}

/**
 * A credit budget kept in PostgreSQL and shared by every worker: before a video job is
 * submitted, its expected price is reserved in one transaction that locks every scope's row
 * (the run's and the account's) and refuses when any would go over its maximum; once the job
 * completes, the reservation is settled at its real price. Keys are idempotency keys, so a
 * recovered submission finds its reservation instead of reserving twice. A run that was
 * cancelled reserves nothing more (the reservation reads the cancel mark under its row lock).
 * @example const budget = createDatabaseBudget({ pool, runId, scopes: ["run:r1"], maxCredits: 500 });
 */
export function createDatabaseBudget(options: DatabaseBudgetOptions): CreditBudget & {
  /** Releases the reservations of submissions whose jobs never completed (prefix of their keys). */
  releaseOpen(keyPrefix: string): Promise<void>;
} {
  const { pool } = options;
  let spent = 0;
  let refused = false;
  let reached = false;
  const reach = (total: number, max: number) => {
    if (reached) return;
    reached = true;
    options.onReached?.(total, max);
  };
  const scopes = [...new Set(options.scopes)].sort();
  return {
    maxCredits: options.maxCredits,
    get spent() {
      return spent;
    },
    get reached() {
      return reached;
    },
    get refused() {
      return refused;
    },
    async assertCanSubmit(submission?: BudgetRequest) {
      const key = submission?.key;
      if (!key) return;
      const estimate = estimateVideoCredits(submission.request, options.pixelSecondsPerCredit);
      await inTransaction(pool, async (client) => {
        const existing = await client.query(
          `SELECT state FROM ${SCHEMA}.reservations WHERE key = $1 FOR UPDATE`,
          [key],
        );
        const state = existing.rows[0]?.state;
        if (state === "reserved" || state === "spent") return;
        // No submission is admitted once the run's cancel is recorded: the row lock orders
        // this against `reelsmith cancel`'s mark.
        const run = await client.query(
          `SELECT cancel_requested FROM ${SCHEMA}.runs WHERE run_id = $1 FOR SHARE`,
          [options.runId],
        );
        if (run.rows[0]?.cancel_requested === true) {
          throw new RunCancelledError(
            `run ${options.runId} was cancelled: no new video job is submitted`,
          );
        }
        for (const scope of scopes) {
          await client.query(
            `INSERT INTO ${SCHEMA}.budgets (scope) VALUES ($1) ON CONFLICT (scope) DO NOTHING`,
            [scope],
          );
        }
        const rows = await lockScopes(client, scopes);
        for (const row of rows.rows) {
          if (row.max_credits === null) continue;
          const max = Number(row.max_credits);
          const committed = Number(row.spent) + Number(row.reserved);
          if (committed + estimate > max) {
            refused = true;
            reach(committed, max);
            throw new BudgetExceededError(committed, max);
          }
        }
        await client.query(
          `UPDATE ${SCHEMA}.budgets SET reserved = reserved + $2 WHERE scope = ANY($1)`,
          [scopes, estimate],
        );
        await client.query(
          `INSERT INTO ${SCHEMA}.reservations (key, run_id, scopes, estimate, state)
           VALUES ($1, $2, $3, $4, 'reserved')
           ON CONFLICT (key) DO UPDATE SET estimate = EXCLUDED.estimate, state = 'reserved', credits = NULL`,
          [key, options.runId, scopes, estimate],
        );
      }).catch(async (error) => {
        if (error instanceof BudgetExceededError) {
          // Kept so that the run can tell, wherever the refusal happened (a sub-pipeline's
          // clip whose error its tool's model was told), that its budget stopped it.
          await withReconnect(() =>
            pool.query(
              `INSERT INTO ${SCHEMA}.reservations (key, run_id, scopes, estimate, state)
               VALUES ($1, $2, $3, $4, 'refused')
               ON CONFLICT (key) DO UPDATE SET state = 'refused'
               WHERE ${SCHEMA}.reservations.state = 'released'`,
              [key, options.runId, scopes, estimate],
            ),
          );
        }
        throw error;
      });
    },
    async spend(credits: number, submission?: { key: string }) {
      const amount = Number.isFinite(credits) && credits > 0 ? Math.round(credits) : 0;
      spent += amount;
      const key = submission?.key;
      await inTransaction(pool, async (client) => {
        const found = key
          ? await client.query<{ scopes: string[]; estimate: string; state: string }>(
              `SELECT scopes, estimate, state FROM ${SCHEMA}.reservations WHERE key = $1 FOR UPDATE`,
              [key],
            )
          : undefined;
        const row = found?.rows[0];
        if (row?.state === "spent") return;
        const held = row?.state === "reserved" ? Number(row.estimate) : 0;
        const charged = row?.scopes ?? scopes;
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
            [key, options.runId, charged, amount],
          );
        }
      });
    },
    async releaseOpen(keyPrefix: string) {
      await inTransaction(pool, async (client) => {
        const open = await client.query<{ key: string; scopes: string[]; estimate: string }>(
          `SELECT key, scopes, estimate FROM ${SCHEMA}.reservations
           WHERE run_id = $1 AND state = 'reserved' AND starts_with(key, $2) FOR UPDATE`,
          [options.runId, keyPrefix],
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
          await client.query(
            `UPDATE ${SCHEMA}.reservations SET state = 'released' WHERE key = $1`,
            [row.key],
          );
        }
      });
    },
  };
}
