import { setTimeout as sleep } from "node:timers/promises";
import { BudgetExceededError } from "@reelsmith/runner/errors";
import type { BudgetRequest, CreditBudget } from "@reelsmith/runner/internal";
import type { Pool, PoolClient } from "pg";
import { withReconnect } from "../database/pool.js";
import { SCHEMA } from "../database/schema.js";
import { budgetScopes } from "../service.js";
import { type ClaimFence, claimIsCurrent } from "../store/unit-claims.js";
import { inTransaction, type ScopeRow } from "./budget-transaction.js";
import { reserveCredits } from "./reserve-credits.js";
import {
  releaseOpenReservations,
  releaseReservation,
  spendReserved,
} from "./settle-reservations.js";
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
  /**
   * The claim of the unit that spends (on a worker): each reservation, settlement and release
   * is made only while it is current, checked in its own transaction.
   */
  fence?: ClaimFence | undefined;
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
  // Settled here; and what the run held (every worker's) when the database refused one.
  let [spent, committed] = [0, 0];
  let refused = false;
  let reached = false;
  const reach = (total: number, max: number) => {
    if (reached) return;
    reached = true;
    options.onReached?.(total, max);
  };
  const scopes = [...new Set(options.scopes)].sort();
  const refuse = (held: number, max: number): never => {
    refused = true;
    committed = Math.max(committed, held);
    reach(held, max);
    throw new BudgetExceededError(held, max);
  };

  // A unit's budget writes only while its claim is current (its row locked until commit).
  const write = async <T>(action: string, work: (client: PoolClient) => Promise<T>) => {
    const { fence } = options;
    if (!fence) return inTransaction(pool, work);
    await fence.ready();
    return inTransaction(pool, async (client) => {
      if (!(await claimIsCurrent(client, fence.claim))) fence.stale(action);
      return work(client);
    });
  };

  const owner = { runId: options.runId, scopes, service: options.service };

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
      return Math.max(spent, committed);
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
        const outcome = await write(`reserve credits for ${key}`, (client) =>
          reserveCredits(
            client,
            owner,
            { key, request: submission.request, credits: submission.credits },
            refuse,
          ),
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
      await write(`settle ${key ?? "a spend"}`, (client) =>
        spendReserved(client, owner, amount, key),
      );
    },
    async release(submission: { key: string }) {
      await write(`release ${submission.key}`, (client) =>
        releaseReservation(client, submission.key),
      );
    },
    async releaseOpen(keyPrefix: string) {
      await write(`release what ${keyPrefix}… holds`, (client) =>
        releaseOpenReservations(client, options.runId, keyPrefix),
      );
    },
  };
}
