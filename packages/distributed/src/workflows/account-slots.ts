import { DBOS } from "@dbos-inc/dbos-sdk";
import { RunCancelledError } from "@reelsmith/runner/errors";
import {
  accountQueue,
  accountQueuesOf,
  type LimitRunner,
  type QueueSlots,
} from "@reelsmith/runner/internal";
import type { AnyStepKind } from "@reelsmith/runner/kinds";
import { withReconnect } from "../database/pool.js";
import { queueNames } from "../service.js";
import type { RunAccount } from "../store/run-store.js";
import type { WorkerContext } from "../worker/worker-context.js";
import { applicationVersion, slotId as slotIdOf, workflowNames } from "./unit-job.js";
import { terminalStatuses } from "./workflow-watch.js";

/** The message topic that gives a slot back. */
const RELEASE = "release";

/** How long a slot waits for its release before it checks that its holder still exists (s). */
const HOLDER_CHECK_SECONDS = 60;

/**
 * A place among the account's units of a queue holding capacity at the service (video jobs
 * in flight). The slot queue's global concurrency counts the workflows it has started and not
 * finished, so a slot is held from the moment the queue starts this workflow until it returns:
 * when its holder sends the release (the job completed or failed), or when its holder has
 * ended without sending it.
 */
async function slotWorkflow(holderId: string): Promise<void> {
  for (;;) {
    const released = await DBOS.recv<boolean>(RELEASE, { timeoutSeconds: HOLDER_CHECK_SECONDS });
    if (released !== null) return;
    const holder = await DBOS.getWorkflowStatus(holderId);
    if (!holder || terminalStatuses.has(holder.status)) return;
  }
}

/** The registered slot workflow (registered when this module is imported). */
export const registeredSlotWorkflow = DBOS.registerWorkflow(slotWorkflow, {
  name: workflowNames.slot,
});

/**
 * The account's slots of every queue a kind declares `slots` for, as one unit takes them
 * (its own and its sub-runs' units): each a limit in p-limit's call shape backed by the
 * queue's slot workflows ({@link accountSlot}). A provider account of the run with a job
 * limit adds its own places of each account queue the kinds declare (`jobs@<name>`, keyed by
 * the account, so shared by every run and worker using it), which a unit of one of its models
 * takes before its queue's.
 * @example const slots = accountSlots({ context, service, kinds, holderId, signal }); // { video: … }
 */
export function accountSlots(options: {
  context: WorkerContext;
  service: string;
  kinds: Iterable<AnyStepKind>;
  holderId: string;
  signal: AbortSignal;
  checkCancelled?: () => Promise<boolean>;
  /** False once the holder lost its unit to another worker: its slots are not given back. */
  holds?: () => boolean;
  /** The run's provider accounts (those with `maxConcurrentJobs` have slots of their own). */
  accounts?: readonly RunAccount[];
}): QueueSlots {
  const { service, kinds, accounts, ...rest } = options;
  const known = [...kinds];
  // Numbered per holder across its queues: a recovered unit takes them in the same order.
  const counter = { next: 1 };
  const slots: Record<string, LimitRunner> = {};
  for (const kind of known) {
    if (kind.slots === undefined || kind.queue === "local" || slots[kind.queue]) continue;
    slots[kind.queue] = accountSlot({
      ...rest,
      queueName: queueNames.slots(service, kind.queue),
      counter,
    });
  }
  const held = accountQueuesOf(known);
  for (const account of accounts ?? []) {
    if (account.maxConcurrentJobs === undefined) continue;
    for (const queue of held) {
      slots[accountQueue(queue, account.name)] = accountSlot({
        ...rest,
        queueName: queueNames.slots(account.key, queue),
        counter,
      });
    }
  }
  return slots;
}

/**
 * One queue's limit for one unit (p-limit's call shape): `work` runs while the unit holds one
 * of the account's slots of that queue (a {@link slotWorkflow} started by the service's slot
 * queue), and the slot is given back as soon as `work` ends — a clip's download happens
 * outside it, as with the local executor.
 *
 * Slot ids are counted per holder, so a unit recovered on another worker finds the slot its
 * first execution still holds (started, not released) and carries on with it instead of
 * taking a second one; slots already given back are skipped.
 * @example slot: accountSlot({ context, queueName, holderId, signal, counter: { next: 1 } })
 */
export function accountSlot(options: {
  context: WorkerContext;
  queueName: string;
  holderId: string;
  signal: AbortSignal;
  /**
   * Looks at once whether the run was cancelled (aborting `signal` if so). A slot that ends
   * CANCELLED before it started was cancelled with its run: the unit stops there.
   */
  checkCancelled?: () => Promise<boolean>;
  /** The holder's slot numbers, shared by its queues. */
  counter: { next: number };
  /** False once the holder lost its unit to another worker: the slot is its new holder's. */
  holds?: () => boolean;
}): LimitRunner {
  const { context, queueName, holderId, signal, counter } = options;
  // Numbers are taken before any await: a unit whose sub-pipeline runs several clips at
  // once takes one slot for each.
  const acquire = async (): Promise<string> => {
    for (;;) {
      const slotId = slotIdOf(holderId, counter.next++);
      await withReconnect(() =>
        context.dbos.enqueue(
          {
            queueName,
            workflowName: workflowNames.slot,
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
            `slot ${slotId} ended ${status.status} before it was granted`,
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
      if (options.holds?.() !== false) {
        await withReconnect(() => context.dbos.send(slotId, true, RELEASE)).catch((error) =>
          // The slot notices its holder's end on its own (within a minute).
          context.logger?.warn?.("a slot was not released", {
            slot: slotId,
            error: (error as Error).message,
          }),
        );
      }
    }
  };
}
