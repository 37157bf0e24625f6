import { DBOS } from "@dbos-inc/dbos-sdk";
import { RunCancelledError } from "@reelsmith/runner";
import type { LimitRunner } from "@reelsmith/runner/internal";
import { withReconnect } from "../database/pool.js";
import type { WorkerContext } from "../worker/worker-context.js";
import { applicationVersion, videoSlotId, workflowNames } from "./unit-job.js";
import { terminalStatuses } from "./workflow-watch.js";

/** The message topic that gives a slot back. */
const RELEASE = "release";

/** How long a slot waits for its release before it checks that its holder still exists (s). */
const HOLDER_CHECK_SECONDS = 60;

/**
 * A place among the account's video jobs in flight. The video queue's global concurrency
 * counts the workflows it has started and not finished, so a slot is held from the moment
 * the queue starts this workflow until it returns: when its holder sends the release (the
 * job completed or failed), or when its holder has ended without sending it.
 */
async function videoSlotWorkflow(holderId: string): Promise<void> {
  for (;;) {
    const released = await DBOS.recv<boolean>(RELEASE, { timeoutSeconds: HOLDER_CHECK_SECONDS });
    if (released !== null) return;
    const holder = await DBOS.getWorkflowStatus(holderId);
    if (!holder || terminalStatuses.has(holder.status)) return;
  }
}

/** The registered slot workflow (registered when this module is imported). */
export const registeredVideoSlotWorkflow = DBOS.registerWorkflow(videoSlotWorkflow, {
  name: workflowNames.videoSlot,
});

/**
 * The video limit of one unit (p-limit's call shape): `work` runs while the unit holds one of
 * the account's video slots (a {@link videoSlotWorkflow} started by the service's video
 * queue), and the slot is given back as soon as `work` ends — the clip's download happens
 * outside it, as with the local executor.
 *
 * Slot ids are counted per holder, so a unit recovered on another worker finds the slot its
 * first execution still holds (started, not released) and carries on with it instead of
 * taking a second one; slots already given back are skipped.
 * @example videoLimit: videoSlots({ context, queueName, holderId, signal })
 */
export function videoSlots(options: {
  context: WorkerContext;
  queueName: string;
  holderId: string;
  signal: AbortSignal;
  /**
   * Looks at once whether the run was cancelled (aborting `signal` if so). A slot that ends
   * CANCELLED before it started was cancelled with its run: the unit stops there.
   */
  checkCancelled?: () => Promise<boolean>;
}): LimitRunner {
  const { context, queueName, holderId, signal } = options;
  // Numbers are taken before any await: a unit whose sub-pipeline runs several clips at
  // once takes one slot for each.
  let next = 1;
  const acquire = async (): Promise<string> => {
    for (;;) {
      const slotId = videoSlotId(holderId, next++);
      await withReconnect(() =>
        context.dbos.enqueue(
          {
            queueName,
            workflowName: workflowNames.videoSlot,
            workflowID: slotId,
            appVersion: applicationVersion,
          },
          holderId,
        ),
      );
      try {
        const status = await context.watch.until(
          slotId,
          (s) => s.status !== "ENQUEUED" && s.status !== "DELAYED",
          signal,
        );
        if (status.status === "PENDING") return slotId;
        if (status.status !== "SUCCESS") {
          // Cancelled in the queue (`reelsmith cancel` cancels waiting slots): never take
          // another one, which could let this unit submit after its run was cancelled.
          await options.checkCancelled?.();
          signal.throwIfAborted();
          throw new RunCancelledError(
            `video slot ${slotId} ended ${status.status} before it was granted`,
          );
        }
      } catch (error) {
        // Cancelled while waiting: the place in the queue is given up (started or not).
        await context.dbos.cancelWorkflow(slotId).catch(() => undefined);
        throw error;
      }
      // Given back before (SUCCESS: an earlier execution of this unit): try the next one.
    }
  };
  return async <T>(work: () => PromiseLike<T> | T): Promise<T> => {
    const slotId = await acquire();
    try {
      return await work();
    } finally {
      await withReconnect(() => context.dbos.send(slotId, true, RELEASE)).catch((error) =>
        // The slot notices its holder's end on its own (within a minute).
        context.logger?.warn?.("a video slot was not released", {
          slot: slotId,
          error: (error as Error).message,
        }),
      );
    }
  };
}
