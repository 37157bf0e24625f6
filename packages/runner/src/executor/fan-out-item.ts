import { reviveError } from "../errors/revive-error.js";
import { addTotals, type RunTotals } from "../events/run-event.js";
import type { PreviousItem } from "../expressions/index.js";
import { SINGLE_ITEM } from "../journal/journal-state.js";
import type { FanOutArgs, FanOutResult } from "./fan-out-types.js";
import { queueSlot } from "./queue-slots.js";
import { reusableItem } from "./resume-reuse.js";
import { queueSlotFor, type SlotPool } from "./slot-pool.js";
import { unitContext, unitRequest } from "./unit-request.js";

/** The provider account serving a model, when the run's client routes it to one. */
function accountOf(services: FanOutArgs["services"], model: unknown): string | undefined {
  const client = services.unit.client as { accountOf?: (model: string) => string | undefined };
  return typeof model === "string" ? client?.accountOf?.(model) : undefined;
}

/** A fan-out under way: what it was given, and what its items gave so far. */
export interface FanOutRun {
  args: FanOutArgs;
  results: FanOutResult["results"];
  errors: FanOutResult["errors"];
  totals: RunTotals;
  /** Says an item's end (`item.end`), for a step with `for_each`. */
  itemEnd(
    position: number,
    status: "reused" | "cached" | "succeeded" | "failed",
    error?: unknown,
  ): void;
}

/**
 * Runs one item of a fan-out in its global slot: taken from the journal when a resume finds
 * it intact (true), left as it was when a focused session makes another item, else handed to
 * the executor's units with its request (a retaken item's take changes it).
 * @example const reused = await runFanOutItem(run, item, 2, slot);
 */
export async function runFanOutItem(
  run: FanOutRun,
  item: unknown,
  position: number,
  slot: ReturnType<SlotPool["holder"]>,
  chain?: { previous: PreviousItem | null; mayReuse: boolean },
): Promise<boolean> {
  const { args, results, errors, totals, itemEnd } = run;
  const { step, kind, items, fanOut, services } = args;
  const { bus } = services.unit;
  const stop = services.unit.stop ?? services.unit.signal;
  const index = fanOut ? position : undefined;
  const prior = args.previous?.items.get(index ?? SINGLE_ITEM);
  if (fanOut) bus.emit({ type: "item.start", step: step.id, index: position, total: items.length });
  if (prior && chain?.mayReuse !== false && (await reusableItem(prior, services.unit.runDir))) {
    results[position] = { outputs: prior.outputs as Record<string, unknown>, cached: false };
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
      // Object.assign, not `{ ...services.unit, slot }`: a hidden class per unit otherwise.
      Object.assign({}, services.unit, {
        slot: queueSlotFor(
          slot,
          queueSlot(
            services.slots,
            kind,
            accountOf(services, (spec as { model?: unknown } | null)?.model),
          ),
        ),
        // A request to another model (a speech's transcription) holds that model's account's.
        slotOf: (model: unknown) =>
          queueSlotFor(slot, queueSlot(services.slots, kind, accountOf(services, model))),
      }),
    );
    results[position] = fanOut
      ? { outputs: result.outputs, cached: result.cached }
      : { outputs: result.outputs, cached: result.cached, artifacts: result.artifacts };
    addTotals(totals, result.totals);
    itemEnd(position, result.cached ? "cached" : "succeeded");
  } catch (error) {
    errors.push({ index, error });
    itemEnd(position, "failed", error);
  }
  return false;
}
