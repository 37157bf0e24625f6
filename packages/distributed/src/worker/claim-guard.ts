import { AsyncLocalStorage } from "node:async_hooks";
import type { OutgoingRequest } from "@reelsmith/core";
import type { Pool } from "pg";
import { type Logger, withReconnect } from "../database/pool.js";
import { StaleClaimError } from "../errors/stale-claim-error.js";
import { type ClaimFence, claimIsCurrent, type UnitClaim } from "../store/unit-claims.js";
import type { SelfFence } from "./self-fence.js";

/** What a guard needs of its worker: the database, its log, its own fence, its stop. */
export interface ClaimGuardHost {
  pool: Pool;
  logger: Logger | undefined;
  fence: SelfFence;
  /** Ends a wait at the fence when the worker stops. */
  stopping: AbortSignal;
}

/** A unit's claim as its execution uses it: the fence of its writes, and of what it sends. */
export interface ClaimGuard extends ClaimFence {
  /** What the unit did not do when it found its claim stale (undefined while it holds it). */
  readonly lost: string | undefined;
  /**
   * For what is not a database write (a paid request, an artifact's rename): waits while the
   * worker fences itself, renews its heartbeat, checks the claim in the database, then that
   * the worker's own fence is still open, as late as possible before the action.
   */
  check(action: string): Promise<void>;
}

/** The claim guard of the unit whose code runs now (requests are sent from within it). */
const current = new AsyncLocalStorage<ClaimGuard>();

/**
 * Runs `work` as the unit of `guard`: the requests it sends are checked against its claim.
 * @example await withClaimGuard(guard, () => runUnit(work, services));
 */
export function withClaimGuard<T>(guard: ClaimGuard, work: () => Promise<T>): Promise<T> {
  return current.run(guard, work);
}

/**
 * The client's last word before each request leaves: a request other than a read, sent by a
 * unit, is sent only while the unit's claim is current (`beforeRequest` of the core client).
 * @example createClient({ baseURL, beforeRequest: fenceRequest });
 */
export async function fenceRequest(request: OutgoingRequest): Promise<void> {
  const guard = current.getStore();
  if (!guard) return;
  const read = request.method === "GET" || request.method === "HEAD";
  if (read) {
    if (guard.lost !== undefined) guard.stale(`send ${request.method} ${request.path}`);
    return;
  }
  await guard.check(`send ${request.method} ${request.path}`);
}

/**
 * The guard of one claim on this worker: a stale claim is told once to the worker's logger
 * (which unit, which claim, what was not done) and every later action of the unit is refused.
 * @example const guard = createClaimGuard(context, claim);
 */
export function createClaimGuard(context: ClaimGuardHost, claim: UnitClaim): ClaimGuard {
  let lost: string | undefined;
  const guard: ClaimGuard = {
    claim,
    get lost() {
      return lost;
    },
    stale(action: string): never {
      if (lost === undefined) {
        lost = action;
        context.logger?.warn?.(
          "a unit this worker held was taken over by another worker: it drops it without doing what it was about to do",
          { unit: claim.unitId, claim: claim.epoch, executor: claim.executorId, action },
        );
      }
      throw new StaleClaimError(claim.unitId, claim.epoch, action);
    },
    async ready() {
      if (lost !== undefined) guard.stale(lost);
      await context.fence.untilFresh(context.stopping);
    },
    async check(action: string) {
      for (;;) {
        await guard.ready();
        // A heartbeat recorded now: the unit cannot be handed over for a whole grace from
        // here, however long this worker then stalls before the action (at least half of it
        // from a heartbeat already fresh). Asked beside the claim's check, not before it: the
        // action waits one round trip, as it did, not two (a cancel recorded meanwhile finds
        // fewer requests admitted but not yet sent).
        const [holds] = await Promise.all([
          withReconnect(() => claimIsCurrent(context.pool, claim), { logger: context.logger }),
          context.fence.renew(),
        ]);
        if (!holds) guard.stale(action);
        // Frozen during the check: ask again once the heartbeat is renewed.
        if (context.fence.fresh()) return;
      }
    },
  };
  return guard;
}
