import { withReconnect } from "../database/pool.js";
import { takeClaim } from "../store/unit-claims.js";
import { type ClaimGuard, createClaimGuard, withClaimGuard } from "../worker/claim-guard.js";
import type { WorkerContext } from "../worker/worker-context.js";

/**
 * Runs a workflow of this worker (a unit, a run) under a claim of its own: a new epoch taken
 * once the worker's own fence is open, and only while DBOS gives the workflow to this worker.
 * A workflow it cannot claim, or whose claim goes stale while it runs, is dropped here: it
 * says so to the logger and returns `dropped()` once DBOS shows the workflow is no longer this
 * worker's (DBOS records only its owner's outcome), or once the worker stops.
 * @example return claimedWorkflow(context, DBOS.workflowID, (guard) => play(guard), () => lost);
 */
export async function claimedWorkflow<T>(
  context: WorkerContext,
  workflowId: string,
  work: (guard: ClaimGuard) => Promise<T>,
  dropped: (error: unknown) => T,
): Promise<T> {
  await context.fence.untilFresh(context.stopping);
  const claim = await withReconnect(() => takeClaim(context.pool, workflowId, context.executorId), {
    logger: context.logger,
  });
  if (!claim) {
    context.logger?.warn?.(
      "a workflow this worker was to run was handed to another worker while this one was away: it drops it",
      { workflow: workflowId, executor: context.executorId },
    );
    return dropWhenHandedOver(context, workflowId, dropped(undefined));
  }
  const guard = createClaimGuard(context, claim);
  try {
    const result = await withClaimGuard(guard, () => work(guard));
    if (guard.lost === undefined) return result;
    return dropWhenHandedOver(context, workflowId, dropped(undefined));
  } catch (error) {
    if (guard.lost === undefined) throw error;
    return dropWhenHandedOver(context, workflowId, dropped(error));
  }
}

async function dropWhenHandedOver<T>(
  context: WorkerContext,
  workflowId: string,
  outcome: T,
): Promise<T> {
  await context.watch
    .until(
      workflowId,
      (status) => status.status !== "PENDING" || status.executorId !== context.executorId,
      context.stopping,
    )
    .catch(() => undefined);
  return outcome;
}
