import { setTimeout as sleep } from "node:timers/promises";
import { BudgetExceededError, RunCancelledError } from "@reelsmith/runner";
import type { BudgetRequest, CreditBudget } from "@reelsmith/runner/internal";
import type { Pool, PoolClient } from "pg";
import { withReconnect } from "../database/pool.js";
import { SCHEMA } from "../database/schema.js";
import { budgetScopes } from "../service.js";
import { dropProbes, learnFromProbe, lockLearntPrice, takeProbe } from "./learnt-prices.js";
import { type PriceKind, priceKind } from "./video-price.js";

/** Where a run's budget lives: its scopes (the run, the service account) and the run id. */
export interface DatabaseBudgetOptions {
  pool: Pool;
  runId: string;
  /** The service account's key: prices learnt from its jobs are kept under it. */
  service: string;
  /** Budget scopes checked and charged together (e.g. `run:<id>`, `account:<service>`). */
  scopes: string[];
  /** The run's own maximum (kept in the `run:<id>` scope), for the error message. */
  maxCredits: number | undefined;
  /** Ends a wait for a price being learnt (the run's cancel). */
  signal?: AbortSignal | undefined;
  /** How often a job waiting for its price looks again (ms, default 250). */
  waitIntervalMs?: number;
  /** Called once per submission that waits for its kind's price to be learnt. */
  onWait?: (kind: PriceKind) => void;
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
 * A budget scope's maximum and what is spent or reserved in it; undefined when it has no
 * maximum. `maxCredits` replaces the stored maximum (a number), or clears it (null).
 * @example const left = await budgetLeft(pool, "account:3f2a…"); // { maxCredits: 5000, committed: 1200 }
 */
export async function budgetLeft(
  pool: Pool,
  scope: string,
  maxCredits?: number | null,
): Promise<{ maxCredits: number; committed: number } | undefined> {
  const found = await pool.query<ScopeRow>(
    `SELECT scope, max_credits, spent, reserved FROM ${SCHEMA}.budgets WHERE scope = $1`,
    [scope],
  );
  const row = found.rows[0];
  const max = maxCredits === undefined ? row?.max_credits : maxCredits;
  if (max === null || max === undefined) return undefined;
  return {
    maxCredits: Number(max),
    committed: row ? Number(row.spent) + Number(row.reserved) : 0,
  };
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
 *
 * The expected price is the model's price in the run's catalog. A model without one has its
 * price learnt: the first job of its kind (service, model, size, length) is admitted alone,
 * reserving nothing, while anything is left; the others of that kind wait, on every worker,
 * until it completes (its price is then kept in `reelsmith.video_prices` for every later job
 * and run) or is given up. A budget without a maximum never waits.
 * @example const budget = createDatabaseBudget({ pool, runId, service, scopes: ["run:r1"], maxCredits: 500 });
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
  const refuse = (committed: number, max: number): never => {
    refused = true;
    reach(committed, max);
    throw new BudgetExceededError(committed, max);
  };

  /** One try at reserving: "wait" when the price is being learnt by another job. */
  const reserve = async (
    client: PoolClient,
    key: string,
    request: Record<string, unknown>,
    credits?: number,
  ): Promise<"reserved" | "wait"> => {
    const existing = await client.query(
      `SELECT state FROM ${SCHEMA}.reservations WHERE key = $1 FOR UPDATE`,
      [key],
    );
    const state = existing.rows[0]?.state;
    if (state === "reserved" || state === "spent") return "reserved";
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
    const limits = (await lockScopes(client, scopes)).rows.flatMap((row) =>
      row.max_credits === null
        ? []
        : [{ max: Number(row.max_credits), committed: Number(row.spent) + Number(row.reserved) }],
    );
    // The kind's own price (what it expects the request to cost, from the run's catalogs).
    let estimate =
      typeof credits === "number" && Number.isFinite(credits) && credits >= 0 ? credits : undefined;
    const kind = priceKind(options.service, request);
    let probe = false;
    if (estimate === undefined) {
      const learnt = await lockLearntPrice(client, kind);
      if (learnt.credits !== undefined) {
        estimate = learnt.credits;
      } else if (learnt.openProbe !== undefined && learnt.openProbe !== key) {
        // Another job is learning this price: wait for it, unless nothing limits the run.
        if (limits.length > 0) return "wait";
        estimate = 0;
      } else {
        // The first of its kind: admitted alone, if anything is left at all.
        for (const { committed, max } of limits) {
          if (committed >= max) refuse(committed, max);
        }
        estimate = 0;
        probe = true;
      }
    }
    for (const { committed, max } of limits) {
      if (committed + estimate > max) refuse(committed, max);
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
    if (probe) await takeProbe(client, kind, key);
    return "reserved";
  };

  /** Keeps a refusal, so that the run can tell, wherever it happened, that its budget stopped it. */
  const keepRefusal = (key: string) =>
    withReconnect(() =>
      pool.query(
        `INSERT INTO ${SCHEMA}.reservations (key, run_id, scopes, estimate, state)
         VALUES ($1, $2, $3, 0, 'refused')
         ON CONFLICT (key) DO UPDATE SET state = 'refused'
         WHERE ${SCHEMA}.reservations.state = 'released'`,
        [key, options.runId, scopes],
      ),
    );

  return {
    maxCredits: options.maxCredits,
    get spent() {
      return spent;
    },
    /** What every scope of the run still has free (spent and reserved by any worker counted). */
    async left() {
      let least: number | undefined;
      for (const scope of options.scopes) {
        const row = await withReconnect(() => budgetLeft(pool, scope));
        if (!row) continue;
        const free = Math.max(0, row.maxCredits - row.committed);
        least = least === undefined ? free : Math.min(least, free);
      }
      return least;
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
      for (let waited = false; ; waited = true) {
        const outcome = await inTransaction(pool, (client) =>
          reserve(client, key, submission.request, submission.credits),
        ).catch(async (error) => {
          // A sub-pipeline's clip whose error its tool's model was told: the run still
          // ends on its budget.
          if (BudgetExceededError.isInstance(error)) await keepRefusal(key);
          throw error;
        });
        if (outcome === "reserved") return;
        if (!waited) options.onWait?.(priceKind(options.service, submission.request));
        // Looked at again after a short sleep: the run's cancel ends the wait (its mark is
        // read by the next try, its signal at once).
        await sleep(options.waitIntervalMs ?? 250, undefined, {
          ...(options.signal ? { signal: options.signal } : {}),
        }).catch((error) => {
          options.signal?.throwIfAborted();
          throw error;
        });
      }
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
          // A job sent to learn its kind's price teaches it to every worker and later run.
          await learnFromProbe(client, key, amount);
        }
      });
    },
    async release(submission: { key: string }) {
      await inTransaction(pool, async (client) => {
        const found = await client.query<{ scopes: string[]; estimate: string }>(
          `SELECT scopes, estimate FROM ${SCHEMA}.reservations
           WHERE key = $1 AND state = 'reserved' FOR UPDATE`,
          [submission.key],
        );
        const row = found.rows[0];
        if (row) {
          await lockScopes(client, row.scopes);
          await client.query(
            `UPDATE ${SCHEMA}.budgets SET reserved = GREATEST(0, reserved - $2) WHERE scope = ANY($1)`,
            [row.scopes, Number(row.estimate)],
          );
          await client.query(
            `UPDATE ${SCHEMA}.reservations SET state = 'released' WHERE key = $1`,
            [submission.key],
          );
        }
        // Its job will not complete: the next job of its kind learns the price instead.
        await dropProbes(client, [submission.key]);
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
        await dropProbes(
          client,
          open.rows.map((row) => row.key),
        );
      });
    },
  };
}
