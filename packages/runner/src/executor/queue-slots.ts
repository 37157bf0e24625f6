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
  const sizes = new Map<string, number>();
  for (const kind of kinds) {
    if (kind.slots === undefined) continue;
    sizes.set(kind.queue, Math.min(sizes.get(kind.queue) ?? kind.slots, kind.slots));
  }
  for (const [queue, size] of Object.entries(given)) sizes.set(queue, size);
  return Object.fromEntries([...sizes].map(([queue, size]) => [queue, pLimit(size)]));
}

const unlimited: LimitRunner = async (work) => work();

/**
 * The limit a unit of `queue` runs within: the queue's own, or none.
 * @example await queueSlot(slots, kind.queue)(() => submit());
 */
export function queueSlot(slots: QueueSlots, queue: string): LimitRunner {
  return slots[queue] ?? unlimited;
}
