import { reviveError } from "../errors/revive-error.js";
import { serializeError } from "../errors/serialize-error.js";
import { addTotals, emptyTotals, type RunTotals } from "../events/run-event.js";
import type { ExpressionContext, PreviousItem } from "../expressions/index.js";
import { SINGLE_ITEM, type StepState } from "../journal/journal-state.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import type { ExecutableStep } from "./executable-pipeline.js";
import { type QueueSlots, queueSlot } from "./queue-slots.js";
import { reusableItem } from "./resume-reuse.js";
import type { UnitResult, UnitServices } from "./run-unit.js";
import { type LimitRunner, queueSlotFor, type SlotPool } from "./slot-pool.js";
import type { UnitExecutor } from "./unit-executor.js";
import { unitContext, unitRequest } from "./unit-request.js";

/** "item 3" or "items 3–5". */
const notRun = (from: number, to: number) => (from === to ? `item ${from}` : `items ${from}–${to}`);

/**
 * What a fan-out needs of its run, and no more: the services each unit is given, the run's
 * video limit (lent to a unit through its global slot), where units run, whether the cache
 * is read, and the one unit a focused session (a retake, a pick) makes.
 * @example
 * const services: FanOutServices = { unit: { runDir, signal, client, bus, journal, defaults, cacheDir, extras }, slots, units: localUnits, cache: true };
 */
export interface FanOutServices {
  unit: Omit<UnitServices, "slot">;
  /** The limits of the kinds' queues, by queue name. */
  slots: QueueSlots;
  units: UnitExecutor;
  cache: boolean;
  focus?: { step: string; index?: number };
}

/** What a step's units gave: each item's result (in order), the errors, and the spending. */
export interface FanOutResult {
  results: (UnitResult | undefined)[];
  errors: { index: number | undefined; error: unknown }[];
  totals: RunTotals;
}

/**
 * Runs a step's units — its one unit, or one per `for_each` item — each within the step's
 * `max_parallel` and the run's global slots, handing each to the executor's units (in this
 * process, or on a queue). A resumed item whose files are intact is taken from the journal.
 * An item's failure does not stop the others; the caller decides what the step became.
 *
 * A `sequential` step runs its items in order, one at a time: each reads the one before as
 * `previous` (null in the first). An item's failure stops the items after it (they would
 * read what it did not make); on resume an item is reused only while every item before it
 * was reused too, so an item whose previous was made again runs again.
 * @example const { results, errors } = await runFanOut({ step, kind, items, body, …, services });
 */
export async function runFanOut(args: {
  step: ExecutableStep;
  kind: AnyStepKind;
  /** The items (`[undefined]` for a step without `for_each`). */
  items: readonly unknown[];
  fanOut: boolean;
  /** The step's body, defaults merged, expressions not evaluated yet. */
  body: Record<string, unknown>;
  timeoutMs: number | undefined;
  context: ExpressionContext;
  previous: StepState | undefined;
  globalSlots: SlotPool;
  services: FanOutServices;
}): Promise<FanOutResult> {
  const { step, kind, items, fanOut, services } = args;
  const { bus, signal } = services.unit;
  const stop = services.unit.stop ?? signal;
  const results: (UnitResult | undefined)[] = new Array(items.length).fill(undefined);
  const errors: FanOutResult["errors"] = [];
  const totals = emptyTotals();
  const itemEnd = (
    position: number,
    status: "reused" | "cached" | "succeeded" | "failed",
    error?: unknown,
  ) => {
    if (!fanOut) return;
    bus.emit({
      type: "item.end",
      step: step.id,
      index: position,
      total: items.length,
      status,
      ...(error === undefined ? {} : { error: serializeError(error) }),
    });
  };
  /** Runs one item; true when it was taken from the journal (resume). */
  const runItem = async (
    item: unknown,
    position: number,
    slot: ReturnType<SlotPool["holder"]>,
    chain?: { previous: PreviousItem | null; mayReuse: boolean },
  ): Promise<boolean> => {
    const index = fanOut ? position : undefined;
    const prior = args.previous?.items.get(index ?? SINGLE_ITEM);
    if (fanOut)
      bus.emit({ type: "item.start", step: step.id, index: position, total: items.length });
    if (prior && chain?.mayReuse !== false && (await reusableItem(prior, services.unit.runDir))) {
      results[position] = {
        outputs: prior.outputs as Record<string, unknown>,
        totals: emptyTotals(),
        cached: false,
      };
      itemEnd(position, "reused");
      return true;
    }
    const focus = services.focus;
    if (focus?.step === step.id && focus.index !== index && prior?.status !== "succeeded") {
      // A retake or a pick makes one item: the others it did not make stay as they were.
      const error = prior?.error
        ? reviveError(prior.error)
        : new Error(`item ${position} was not made; \`reelsmith resume\` makes it`);
      errors.push({ index, error });
      itemEnd(position, "failed", error);
      return false;
    }
    try {
      stop.throwIfAborted();
      const place = fanOut
        ? { item, index: position, ...(chain ? { previous: chain.previous } : {}) }
        : undefined;
      // A retaken item is asked with its take's changes (a new prompt, other params).
      const spec = unitRequest(
        args.body,
        unitContext(args.context, place),
        prior?.takes?.takes.get(prior.takes.picked)?.request,
      );
      const take = prior?.takes?.picked;
      const result = await services.units.run(
        {
          stepId: step.id,
          kind,
          spec,
          ...(index === undefined ? {} : { index }),
          ...(step.retry ? { retry: step.retry } : {}),
          ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
          cache: services.cache && step.cache !== false,
          ...(prior ? { previous: prior } : {}),
          ...(take !== undefined && take > 1 ? { take } : {}),
        },
        { ...services.unit, slot: queueSlotFor(slot, queueSlot(services.slots, kind.queue)) },
      );
      results[position] = result;
      addTotals(totals, result.totals);
      itemEnd(position, result.cached ? "cached" : "succeeded");
    } catch (error) {
      errors.push({ index, error });
      itemEnd(position, "failed", error);
    }
    return false;
  };
  const inSlot = async <T>(work: (slot: ReturnType<SlotPool["holder"]>) => Promise<T>) => {
    const slot = args.globalSlots.holder();
    await slot.acquire();
    try {
      return await work(slot);
    } finally {
      slot.release();
    }
  };
  if (fanOut && step.sequential === true) {
    let previous: PreviousItem | null = null;
    let mayReuse = true;
    for (const [position, item] of items.entries()) {
      if (stop.aborted) break;
      const reused = await inSlot((slot) => runItem(item, position, slot, { previous, mayReuse }));
      const result = results[position];
      if (!result) {
        if (position + 1 < items.length && !stop.aborted) {
          bus.emit({
            type: "log",
            level: "warn",
            step: step.id,
            message: `${notRun(position + 1, items.length - 1)} of \`${step.id}\` did not run: item ${position} failed, and each item reads the one before it`,
          });
        }
        break;
      }
      mayReuse &&= reused;
      previous = { item, index: position, outputs: result.outputs };
    }
    errors.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return { results, errors, totals };
  }
  // Items start in order, at most `lanes` at a time: the step's `max_parallel`, and no more
  // than the run's slots can move (a unit waiting for its queue's slot holds its context,
  // ledger and request, so 5,000 items started at once would hold 5,000 of each).
  const lanes = Math.min(
    items.length,
    fanOut && step.max_parallel ? step.max_parallel : Number.POSITIVE_INFINITY,
    inFlightWindow(args.globalSlots.size, queueSlot(services.slots, kind.queue)),
  );
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const position = next++;
      await inSlot((slot) => runItem(items[position], position, slot));
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  errors.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return { results, errors, totals };
}

/**
 * How many items of a fan-out may be under way at once: every global slot busy, every slot
 * of the kind's queue busy and as many again waiting for a global slot, so the run's limits
 * stay the only brake. Unbounded when the queue's limit does not say its size (a kind
 * without a queue of its own waits on global slots only, before it starts; units that run
 * elsewhere).
 * @example inFlightWindow(8, pLimit(4)) // 20
 */
export function inFlightWindow(globalSlots: number, queueLimit: LimitRunner): number {
  const queueSlots = (queueLimit as { concurrency?: unknown }).concurrency;
  if (typeof queueSlots !== "number" || !Number.isFinite(queueSlots)) {
    return Number.POSITIVE_INFINITY;
  }
  return 2 * globalSlots + queueSlots;
}
