import { serializeError } from "../errors/serialize-error.js";
import { emptyTotals } from "../events/run-event.js";
import type { PreviousItem } from "../expressions/index.js";
import { type FanOutRun, runFanOutItem } from "./fan-out-item.js";
import type { FanOutArgs, FanOutResult } from "./fan-out-types.js";
import { queueSlot } from "./queue-slots.js";
import type { LimitRunner, SlotPool } from "./slot-pool.js";

export type { FanOutArgs, FanOutResult, FanOutServices } from "./fan-out-types.js";

/** "item 3" or "items 3–5". */
const notRun = (from: number, to: number) => (from === to ? `item ${from}` : `items ${from}–${to}`);

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
export async function runFanOut(args: FanOutArgs): Promise<FanOutResult> {
  const { step, kind, items, fanOut, services } = args;
  const { bus, signal } = services.unit;
  const stop = services.unit.stop ?? signal;
  const results: FanOutResult["results"] = new Array(items.length).fill(undefined);
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
  const run: FanOutRun = { args, results, errors, totals, itemEnd };
  const runItem = (
    item: unknown,
    position: number,
    slot: ReturnType<SlotPool["holder"]>,
    chain?: { previous: PreviousItem | null; mayReuse: boolean },
  ) => runFanOutItem(run, item, position, slot, chain);
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
  if (!fanOut) {
    // One unit: no lanes to share out; it runs in the slot its step took, if it took one.
    const { held } = args;
    if (held) await runItem(items[0], 0, held);
    else await inSlot((slot) => runItem(items[0], 0, slot));
    return { results, errors, totals };
  }
  // Items start in order, at most `lanes` at a time: the step's `max_parallel`, and no more
  // than the run's slots can move (a unit waiting for its queue's slot holds its context,
  // ledger and request, so 5,000 items started at once would hold 5,000 of each).
  const lanes = Math.min(
    items.length,
    fanOut && step.max_parallel ? step.max_parallel : Number.POSITIVE_INFINITY,
    inFlightWindow(args.globalSlots.size, queueSlot(services.slots, kind)),
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
