import { RunCancelledError } from "@reelsmith/runner/errors";
import type { PoolClient } from "pg";
import { SCHEMA } from "../database/schema.js";
import { lockScopes } from "./budget-transaction.js";
import { lockLearntPrice, takeProbe } from "./learnt-prices.js";
import { priceKind } from "./video-price.js";

/** Whose reservations these are: the run, its scopes (sorted), its service and catalog. */
export interface ReservationOwner {
  runId: string;
  /** The budget scopes checked and charged together, sorted (the order rows are locked in). */
  scopes: readonly string[];
  service: string;
}

/** One submission to reserve for: its idempotency key, its request, its kind's own price. */
export interface Reservation {
  key: string;
  request: Record<string, unknown>;
  credits?: number | undefined;
}

/**
 * One try at reserving a submission's expected price in every scope, in the caller's
 * transaction: "wait" when the price is being learnt by another job. Over a scope's maximum it
 * calls `refuse` (which throws); a run whose cancel is recorded reserves nothing
 * (RunCancelledError).
 * @example const outcome = await reserveCredits(client, owner, { key, request }, refuse); // "reserved"
 */
export async function reserveCredits(
  client: PoolClient,
  owner: ReservationOwner,
  reservation: Reservation,
  refuse: (committed: number, max: number) => never,
): Promise<"reserved" | "wait"> {
  const { key, request, credits } = reservation;
  const { scopes } = owner;
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
    [owner.runId],
  );
  if (run.rows[0]?.cancel_requested === true) {
    throw new RunCancelledError(`run ${owner.runId} was cancelled: no new video job is submitted`);
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
  const kind = priceKind(owner.service, request);
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
    [key, owner.runId, scopes, estimate],
  );
  if (probe) await takeProbe(client, kind, key);
  return "reserved";
}
