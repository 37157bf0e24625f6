import { exactAmount } from "@reelsmith/core/catalog";
import { type EstimateCache, requestCacheKey } from "../cache/request-cache-key.js";
import { servableEntry } from "../cache/servable-entry.js";
import { cacheLocation } from "../cache/step-cache.js";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import type { RunEstimate, StepEstimate } from "../plan/plan-types.js";
import { type PartsByUnit, partsByUnit, settleUnitTotals } from "../plan/price-units.js";
import type { ModelCatalogs } from "../steps/step-kind.js";
import type { CreditBudget } from "./budget.js";
import type { ExecuteOptions } from "./execute-pipeline.js";

/** What {@link budgetAdmission} checks a fan-out against. */
export interface BudgetAdmissionOptions {
  /** The run's estimate (each paid step's price per unit). */
  estimate: RunEstimate;
  budget: CreditBudget;
  /** The cache a unit may be served from (its units then cost nothing), and its service. */
  cache?: (EstimateCache & { pipelineDir: string }) | undefined;
  /** Steps whose units are never served from the cache (`cache: false`). */
  uncached?: ReadonlySet<string>;
  /** False: the estimate is refined, but a fan-out is never stopped (`allowPartial`). */
  enforce?: boolean;
  /** The model catalogs: each unit is priced by its kind from its request once it is known. */
  catalogs?: ModelCatalogs;
  /** Told the run's estimate again once a fan-out's length made it more precise. */
  onEstimate?: (estimate: RunEstimate) => void;
}

/**
 * The executor's `admit` for a budget: once a fan-out's length is known, what its units will
 * certainly cost (its price per unit times the units neither made nor in the cache) is held
 * against what is left of the budget, and the step stops before the first of them is sent
 * when it does not fit (`BudgetExceededError` saying how much is missing and how to go on).
 * The run's estimate is worked out again for that step (`onEstimate`), so every figure shown
 * from then on counts what the fan-out will cost; a run that allows a part of it
 * (`enforce: false`) is never stopped here.
 * @example executePipeline({ …, admit: budgetAdmission({ estimate, budget, onEstimate }) });
 */
export function budgetAdmission(
  options: BudgetAdmissionOptions,
): NonNullable<ExecuteOptions["admit"]> {
  const estimate: RunEstimate = structuredClone(options.estimate);
  return async ({ id, kind, units, specs }) => {
    const max = options.budget.maxCredits;
    const planned = estimate.steps[id];
    if (!planned) return; // it costs nothing
    // A step wholly priced in another unit is refined in it, and never held against credits.
    const ownUnit = planned.unit;
    // Each unit priced by its kind from its request, now that it is known (a clip's length
    // from its narration's), each part in its model's unit; the plan's price per unit where
    // the kind cannot tell. Requests are read once, as they are made; of each, its price, its
    // parts and the key it would be cached under are kept.
    // The cache its units may be served from, and how the kind keys a request there.
    const lookup =
      options.cache && kind.cache && !options.uncached?.has(id)
        ? { cache: options.cache, policy: kind.cache }
        : undefined;
    const splits: PartsByUnit[] = [];
    const prices: number[] = [];
    const keys: (string | undefined)[] = [];
    for (const spec of specs) {
      const split = partsByUnit(
        options.catalogs,
        kind.plan(spec, options.catalogs ? { catalogs: options.catalogs } : {}),
        typeof spec.model === "string" ? spec.model : undefined,
      );
      const price =
        (ownUnit === undefined ? split.credits : split.otherUnits[ownUnit]?.amount) ??
        planned.perUnit;
      // A unit without a price, and none per unit in the plan: nothing to hold (as below).
      if (price === undefined) return;
      splits.push(split);
      prices.push(price);
      if (lookup) {
        const { cache, policy } = lookup;
        keys.push(
          await requestCacheKey(kind.kind, policy, spec, cache.pipelineDir, cache).catch(
            () => undefined,
          ),
        );
      }
    }
    const everyPriced = prices.length === units;
    if (!everyPriced && planned.perUnit === undefined) return;
    const cached = new Set<number>();
    if (lookup) {
      const cache = cacheLocation(lookup.cache.location);
      for (const [index, key] of keys.entries()) {
        if (key && (await servableEntry(cache, key))) cached.add(index);
      }
    }
    const paid = units - cached.size;
    const credits = everyPriced
      ? prices.reduce<number>((sum, price, index) => sum + (cached.has(index) ? 0 : price), 0)
      : (planned.perUnit ?? 0) * paid;
    const distinct = new Set(everyPriced ? prices : [planned.perUnit]);
    const perUnit = distinct.size === 1 ? [...distinct][0] : undefined;
    refine(estimate, id, {
      ...(perUnit === undefined ? {} : { perUnit }),
      units: paid,
      cached: cached.size,
      credits: ownUnit === undefined ? credits : exactAmount(credits),
      ...(ownUnit === undefined ? {} : { unit: ownUnit }),
      otherUnits: unitParts(planned, splits, cached),
    });
    options.onEstimate?.(structuredClone(estimate));
    if (ownUnit !== undefined) return;
    if (max === undefined || options.enforce === false || paid === 0 || credits === 0) return;
    const left = (await options.budget.left?.()) ?? Math.max(0, max - options.budget.spent);
    if (credits > left) {
      throw new BudgetExceededError(options.budget.spent, max, {
        step: id,
        units: paid,
        perUnit: perUnit ?? Math.ceil(credits / Math.max(1, paid)),
        left,
      });
    }
  };
}

/**
 * The steps whose results are never taken from the cache (`cache: false`).
 * @example uncachedSteps({ steps: [{ id: "clips", cache: false }] }) // Set { "clips" }
 */
export function uncachedSteps(spec: {
  steps: readonly { id: string; cache?: unknown }[];
}): Set<string> {
  return new Set(spec.steps.filter((step) => step.cache === false).map((step) => step.id));
}

/**
 * A step's parts in other units (a voice in usd beside its transcription's credits), worked
 * out for its units now known: each unit's amount in each, the cached ones at 0; a unit's
 * part its kind cannot price now keeps the plan's price per unit.
 */
function unitParts(
  planned: StepEstimate,
  splits: readonly PartsByUnit[],
  cached: ReadonlySet<number>,
): StepEstimate["otherUnits"] {
  if (!planned.otherUnits) return undefined;
  const parts: NonNullable<StepEstimate["otherUnits"]> = {};
  for (const [unit, part] of Object.entries(planned.otherUnits)) {
    const amounts = splits.map((split) => split.otherUnits[unit]?.amount ?? part.perUnit);
    const paid = amounts.filter((_, index) => !cached.has(index));
    const distinct = new Set(paid);
    const perUnit = distinct.size === 1 ? [...distinct][0] : undefined;
    parts[unit] = {
      ...(perUnit === undefined ? {} : { perUnit }),
      ...(amounts.every((amount) => amount !== undefined)
        ? { amount: exactAmount(paid.reduce<number>((sum, amount) => sum + (amount ?? 0), 0)) }
        : {}),
    };
  }
  return parts;
}

/** Puts a fan-out's now known size into the run's estimate, and its totals and completeness. */
function refine(
  estimate: RunEstimate,
  id: string,
  known: {
    perUnit?: number;
    units: number;
    cached: number;
    credits: number;
    unit?: string;
    otherUnits?: StepEstimate["otherUnits"];
  },
): void {
  // What its units cost in the run's earlier sessions stays counted.
  const spent = estimate.steps[id]?.spent;
  estimate.steps[id] = {
    ...(known.perUnit === undefined ? {} : { perUnit: known.perUnit }),
    units: known.units,
    credits: known.credits + (spent ?? 0),
    ...(spent ? { spent } : {}),
    ...(known.cached > 0 ? { cached: known.cached } : {}),
    ...(known.unit === undefined ? {} : { unit: known.unit }),
    ...(known.otherUnits ? { otherUnits: known.otherUnits } : {}),
  };
  settleTotal(estimate);
  settleUnitTotals(estimate);
}

/**
 * A run's total worked out again from its steps' estimates: certain when every step's is,
 * a range when some are ranges and none unknown.
 * @example settleTotal(estimate); // estimate.credits, .complete and .creditsAtMost from its steps
 */
export function settleTotal(estimate: RunEstimate): void {
  // A step priced in another unit is totalled in it (`otherUnits`), never in credits.
  const steps = Object.values(estimate.steps).filter((step) => step.unit === undefined);
  estimate.credits = steps.reduce((sum, step) => sum + (step.credits ?? 0), 0);
  const known = steps.every((step) => step.credits !== undefined || step.perUnit === 0);
  const ranged = steps.some((step) => step.creditsAtMost !== undefined);
  estimate.complete = known && !ranged;
  if (known && ranged)
    estimate.creditsAtMost = steps.reduce(
      (sum, step) => sum + (step.creditsAtMost ?? step.credits ?? 0),
      0,
    );
  else if (estimate.complete) delete estimate.creditsAtMost;
}
