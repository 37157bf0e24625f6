import type { Pool, PoolClient } from "pg";
import { SCHEMA } from "../database/schema.js";

/** The right of one execution of a unit (a workflow) to act for it: its epoch and executor. */
export interface UnitClaim {
  /** The unit's workflow id. */
  unitId: string;
  epoch: number;
  executorId: string;
}

/**
 * What a write of a unit needs to be fenced: its claim, a wait while its worker fences itself,
 * and what to do once the claim is found stale (it records why, then throws).
 */
export interface ClaimFence {
  claim: UnitClaim;
  /** Resolves once the worker's liveness is fresh (its heartbeat renewed within half its grace). */
  ready(): Promise<void>;
  /** The claim is stale: records why `action` was not done, then throws StaleClaimError. */
  stale(action: string): never;
}

/** Something to query with: the pool, or a transaction's client. */
type Queryable = Pick<Pool | PoolClient, "query">;

/**
 * Takes the claim of a unit for this execution: a new epoch, for this executor, but only
 * while DBOS gives the workflow to this executor (PENDING on it). Undefined when it does not:
 * the workflow was handed to another worker while this one was away.
 * @example const claim = await takeClaim(pool, workflowId, executorId);
 */
export async function takeClaim(
  pool: Queryable,
  unitId: string,
  executorId: string,
): Promise<UnitClaim | undefined> {
  const result = await pool.query<{ epoch: number }>(
    `INSERT INTO ${SCHEMA}.claims (unit_id, epoch, executor_id)
     SELECT $1, 1, $2 WHERE EXISTS (
       SELECT 1 FROM dbos.workflow_status
        WHERE workflow_uuid = $1 AND executor_id = $2 AND status = 'PENDING')
     ON CONFLICT (unit_id) DO UPDATE SET epoch = ${SCHEMA}.claims.epoch + 1,
       executor_id = EXCLUDED.executor_id, claimed_at = now()
     RETURNING epoch`,
    [unitId, executorId],
  );
  const row = result.rows[0];
  return row ? { unitId, epoch: Number(row.epoch), executorId } : undefined;
}

/**
 * The SQL of a CTE that yields one row while `claim` is current and locks it (FOR SHARE) until
 * the statement's transaction ends, so no hand-over commits between the check and the write.
 * Its parameters are `$first` (unit), `$first+1` (epoch), `$first+2` (executor).
 * @example `WITH claim AS (${currentClaimSql(3)}) INSERT … SELECT … FROM claim`
 */
export function currentClaimSql(first: number): string {
  return `SELECT 1 FROM ${SCHEMA}.claims WHERE unit_id = $${first} AND epoch = $${first + 1}
    AND executor_id = $${first + 2} FOR SHARE`;
}

/** The parameters of {@link currentClaimSql}. */
export function claimParams(claim: UnitClaim): [string, number, string] {
  return [claim.unitId, claim.epoch, claim.executorId];
}

/**
 * True while `claim` is the unit's current one; in a transaction, the claim's row stays
 * locked until it ends (a hand-over waits for it).
 * @example if (!(await claimIsCurrent(client, claim))) fence.stale("reserve credits");
 */
export async function claimIsCurrent(db: Queryable, claim: UnitClaim): Promise<boolean> {
  const result = await db.query(currentClaimSql(1), claimParams(claim));
  return (result.rowCount ?? 0) > 0;
}
