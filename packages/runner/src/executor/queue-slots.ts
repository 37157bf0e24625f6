import pLimit from "p-limit";
import type { AnyStepKind } from "../steps/step-kind.js";
import type { LimitRunner } from "./slot-pool.js";

/** The limit of each queue the run's kinds wait on, by queue name. */
export type QueueSlots = Readonly<Record<string, LimitRunner>>;

/**
 * One limit per queue that has one: the run's `slots` for it, else what its kinds declare
 * (the smallest, when kinds sharing a queue declare different ones). Kinds that declare none
 * and are given none wait on nothing of their own.
 * @example queueSlots(kinds.values(), { video: 2 }).video // a p-limit of 2
 */
export function queueSlots(
  kinds: Iterable<AnyStepKind>,
  given: Readonly<Record<string, number>> = {},
): QueueSlots {
  return Object.fromEntries(
    Object.entries(queueSlotSizes(kinds, given)).map(([queue, size]) => [queue, pLimit(size)]),
  );
}

/**
 * How many units of each queue may hold a slot at once: `given`'s size for a queue, else the
 * smallest its kinds declare; a queue none declares and none is given for has no entry.
 * @example queueSlotSizes(kinds.values(), { video: 2 }) // { video: 2 }
 */
export function queueSlotSizes(
  kinds: Iterable<AnyStepKind>,
  given: Readonly<Record<string, number>> = {},
): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const kind of kinds) {
    if (kind.slots === undefined) continue;
    sizes[kind.queue] = Math.min(sizes[kind.queue] ?? kind.slots, kind.slots);
  }
  return { ...sizes, ...given };
}

const unlimited: LimitRunner = async (work) => work();

/**
 * The name of a provider account's own limit on a queue, as `slots` take it: `video@fal` is
 * how many video units of the account `fal` hold a slot at once.
 * @example accountQueue("video", "fal") // "video@fal"
 */
export function accountQueue(queue: string, account: string): string {
  return `${queue}@${account}`;
}

/**
 * The limit a unit of `queue` runs within: its account's own (when the unit's model is served
 * by a provider account with a limit on that queue) and the queue's own, or none.
 * @example await queueSlot(slots, kind.queue, "fal")(() => submit());
 */
export function queueSlot(slots: QueueSlots, queue: string, account?: string): LimitRunner {
  const shared = slots[queue] ?? unlimited;
  const own = account === undefined ? undefined : slots[accountQueue(queue, account)];
  if (!own) return shared;
  return async <T>(work: () => PromiseLike<T> | T): Promise<T> => own(() => shared(work));
}
