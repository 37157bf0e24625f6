import type { RunTotals } from "../events/run-event.js";
import type { ExpressionContext } from "../expressions/index.js";
import type { StepState } from "../journal/journal-state.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import type { QueueSlots } from "./queue-slots.js";
import type { UnitResult, UnitServices } from "./run-unit.js";
import type { SlotHolder, SlotPool } from "./slot-pool.js";
import type { UnitExecutor } from "./unit-executor.js";

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

/** What {@link runFanOut} is given: the step, its items and body, its context and services. */
export interface FanOutArgs {
  step: StepSpec;
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
  /** A plain step's global slot, taken before it started (its one unit runs in it). */
  held?: SlotHolder;
  services: FanOutServices;
}

/**
 * What a step keeps of an ended unit: its outputs, whether the cache served it, and the files
 * of a step's one unit (a fan-out item's are in its `item.end`). Its totals are added to the
 * step's as it ends, so a fan-out of thousands of items does not hold each one's.
 */
export type KeptResult = Pick<UnitResult, "outputs" | "artifacts" | "cached">;

/** What a step's units gave: each item's result (in order), the errors, and the spending. */
export interface FanOutResult {
  results: (KeptResult | undefined)[];
  errors: { index: number | undefined; error: unknown }[];
  totals: RunTotals;
}
