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
 * The name of a provider account's own limit on a queue, as `slots` take it: `jobs@fal` is
 * how many units of the account `fal` hold one of its places of `jobs` at once.
 * @example accountQueue("jobs", "fal") // "jobs@fal"
 */
export function accountQueue(queue: string, account: string): string {
  return `${queue}@${account}`;
}

/**
 * The account queues the kinds' units hold a place of (each kind's `accountQueue`), once each.
 * @example accountQueuesOf(builtInStepKinds) // ["jobs"]
 */
export function accountQueuesOf(kinds: Iterable<Pick<AnyStepKind, "accountQueue">>): string[] {
  const names = new Set<string>();
  for (const kind of kinds) if (kind.accountQueue !== undefined) names.add(kind.accountQueue);
  return [...names];
}

/**
 * The `slots` of the provider accounts that state a job limit (`max_concurrent_jobs`, by
 * account name): each account's limit on every account queue the kinds declare.
 * @example accountSlotSizes(builtInStepKinds, { fal: 2 }) // { "jobs@fal": 2 }
 */
export function accountSlotSizes(
  kinds: Iterable<Pick<AnyStepKind, "accountQueue">>,
  limits: Readonly<Record<string, number>> = {},
): Record<string, number> {
  const queues = accountQueuesOf(kinds);
  const sizes: Record<string, number> = {};
  for (const [account, size] of Object.entries(limits)) {
    for (const queue of queues) sizes[accountQueue(queue, account)] = size;
  }
  return sizes;
}

/**
 * A run's queue limits from its options: its `slots`, over its provider accounts' own
 * (`accountLimits`, on each account queue its kinds declare), over what the kinds declare.
 * @example runQueueSlots(kinds.values(), { slots: { video: 2 }, accountLimits: { fal: 1 } }) // video, jobs@fal
 */
export function runQueueSlots(
  kinds: Iterable<AnyStepKind>,
  options: {
    slots?: Readonly<Record<string, number>> | undefined;
    accountLimits?: Readonly<Record<string, number>> | undefined;
  },
): QueueSlots {
  const all = [...kinds];
  return queueSlots(all, { ...accountSlotSizes(all, options.accountLimits), ...options.slots });
}

/**
 * The limit a unit of `kind` runs within: the account's own (when the unit's model is served
 * by a provider account with a limit on the kind's `accountQueue`) and the kind's queue's own,
 * or none.
 * @example await queueSlot(slots, kind, "fal")(() => submit());
 */
export function queueSlot(
  slots: QueueSlots,
  kind: Pick<AnyStepKind, "queue" | "accountQueue">,
  account?: string,
): LimitRunner {
  const shared = slots[kind.queue] ?? unlimited;
  const own =
    account === undefined || kind.accountQueue === undefined
      ? undefined
      : slots[accountQueue(kind.accountQueue, account)];
  if (!own) return shared;
  return async <T>(work: () => PromiseLike<T> | T): Promise<T> => own(() => shared(work));
}
