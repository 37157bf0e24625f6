import pLimit from "p-limit";
import { serializeError } from "../errors/serialize-error.js";
import { emptyTotals } from "../events/run-event.js";
import type { PreviousItem } from "../expressions/index.js";
import { type FanOutRun, runFanOutItem } from "./fan-out-item.js";
import type { FanOutArgs, FanOutResult } from "./fan-out-types.js";
import type { UnitResult } from "./run-unit.js";
import type { SlotPool } from "./slot-pool.js";

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
  const { step, items, fanOut, services } = args;
  const { bus, signal } = services.unit;
  const stop = services.unit.stop ?? signal;
  const itemLimit = fanOut && step.max_parallel ? pLimit(step.max_parallel) : undefined;
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
  await Promise.all(
    items.map((item, position) => {
      const unit = () => inSlot((slot) => runItem(item, position, slot));
      return itemLimit ? itemLimit(unit) : unit();
    }),
  );
  errors.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return { results, errors, totals };
}
