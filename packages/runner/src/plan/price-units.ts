import { chargeInUnit, exactAmount, priceUnitsSection } from "@reelsmith/core/catalog";
import type { ModelPriceUnit } from "@reelsmith/core/profile";
import type { ModelCatalogs, PlannedUnit } from "../steps/step-kind.js";
import type { RunEstimate, StepEstimate } from "./plan-types.js";

/**
 * The unit a model's price is stated in, when a run's catalogs say it is not credits (its
 * provider's `unit:`, listed in the `price_units` section), with its rate where stated.
 * @example priceUnitOf(catalogs, "fal-ai/kling") // { id: "fal-ai/kling", provider: "fal", unit: "usd" }
 */
export function priceUnitOf(
  catalogs: ModelCatalogs | undefined,
  model: string | undefined,
): ModelPriceUnit | undefined {
  if (model === undefined) return undefined;
  const listed = catalogs?.[priceUnitsSection] as readonly ModelPriceUnit[] | undefined;
  return listed?.find((entry) => entry.id === model);
}

/**
 * The catalogs with every price in credits: a model priced in another unit at a stated rate
 * has its price multiplied by it; one without a rate keeps its own (`keep`, for a plan that
 * totals it in its unit) or loses it (`drop`, so a run never adds it to its credits).
 * @example creditCatalogs(catalogs, "drop").video_models
 */
export function creditCatalogs(
  catalogs: ModelCatalogs | undefined,
  unrated: "keep" | "drop",
): ModelCatalogs | undefined {
  const listed = catalogs?.[priceUnitsSection] as readonly ModelPriceUnit[] | undefined;
  if (!catalogs || !listed || listed.length === 0) return catalogs;
  const units = new Map(listed.map((entry) => [entry.id, entry]));
  const converted: Record<string, readonly { id: string }[]> = {};
  // A price dropped from credits stays with its unit, to total the run's spending in it.
  const dropped = new Map<string, unknown>();
  for (const [section, models] of Object.entries(catalogs)) {
    if (section === priceUnitsSection) continue;
    converted[section] = models.map((model) => {
      const unit = units.get(model.id);
      const price = (model as { price?: Record<string, unknown> }).price;
      if (!unit || !price) return model;
      if (unit.creditsPerUnit === undefined) {
        if (unrated === "keep") return model;
        const { price: ownPrice, ...rest } = model as { price?: unknown; id: string };
        dropped.set(model.id, ownPrice);
        return rest;
      }
      const rate = unit.creditsPerUnit;
      const scaled = Object.fromEntries(
        Object.entries(price).map(([name, value]) => [
          name,
          // To 1e-9: 1.1 usd × 100 is 110 credits, never 110.00000000000001 (then 111).
          typeof value === "number" ? exactAmount(value * rate) : value,
        ]),
      );
      return { ...model, price: scaled };
    });
  }
  converted[priceUnitsSection] = listed.map((entry) =>
    dropped.has(entry.id) ? { ...entry, ownPrice: dropped.get(entry.id) } : entry,
  );
  return converted;
}

/**
 * The unit a model's price is stated in when it is not credits and has no rate to credits:
 * the price a kind finds for it in a plan's catalogs (`creditCatalogs(…, "keep")`) is in this
 * unit, and is priced exactly in it (`chargeInUnit(amount, unit)`), never rounded up to a
 * whole unit as credits are. Undefined for a model priced in credits (or at a rate).
 * @example ownUnitOf(catalogs, "fal-ai/flux/dev") // "usd"
 */
export function ownUnitOf(
  catalogs: ModelCatalogs | undefined,
  model: string | undefined,
): string | undefined {
  const unit = priceUnitOf(catalogs, model);
  return unit && unit.creditsPerUnit === undefined ? unit.unit : undefined;
}

/**
 * What a charge for `model` came to in its own unit, when its provider's unit has no rate to
 * credits (its price was dropped from the run's credit catalogs by {@link creditCatalogs}):
 * `price` is the kind's own pricing, asked of the catalogs with the model's price put back
 * and told the unit, so it prices exactly (cents stay cents) rather than in whole credits.
 * The run totals it in that unit (`otherUnits`), never in its credits. Undefined otherwise.
 * @example ownUnitCharge(catalogs, "fal-ai/flux/dev", (priced, unit) => imagePrice(priced, unit)) // { usd: 0.05 }
 */
export function ownUnitCharge(
  catalogs: ModelCatalogs | undefined,
  model: string | undefined,
  price: (catalogs: ModelCatalogs, unit: string) => number | undefined,
): Record<string, number> | undefined {
  const unit = droppedUnit(catalogs, model);
  if (!catalogs || !unit) return undefined;
  const restored: Record<string, readonly { id: string }[]> = {};
  for (const [section, models] of Object.entries(catalogs))
    restored[section] =
      section === priceUnitsSection
        ? models
        : models.map((entry) =>
            entry.id === unit.id ? { ...entry, price: unit.ownPrice } : entry,
          );
  return inUnit(unit.unit, price(restored, unit.unit));
}

/** What a paid request cost, as the run counts it: credits, or an amount in another unit. */
export interface UnitCharge {
  /** Credits it cost (0 when it is priced in a unit with no rate to credits). */
  credits: number;
  /** Where its credits come from: the provider's own report, or the model's price. */
  creditsFrom?: "service" | "price";
  /** Its cost in a unit with no rate to credits (`{ usd: 0.05 }`), totalled apart. */
  otherUnits?: Record<string, number>;
}

/**
 * What a paid request for `model` cost, counted in the unit its account bills in. `reported`
 * is what the provider's answer says it cost (`usage.total_credits`), in the account's unit;
 * `price` is the kind's own pricing of the request against the catalogs it is given (told the
 * unit when that is not credits, so it prices exactly). An account priced in credits: the
 * reported credits, else the price. An account in another unit at a rate: the reported
 * amount times the rate (whole credits, rounded up), else the price (its catalogs are in
 * credits already). An account in a unit with no rate: no credits, and the reported amount,
 * else the price, in its unit (`otherUnits`).
 * @example chargeInModelUnit(catalogs, "fal-ai/flux/dev", 0.05, (priced, unit) => imagePrice(priced, unit)) // { credits: 0, otherUnits: { usd: 0.05 } }
 */
export function chargeInModelUnit(
  catalogs: ModelCatalogs | undefined,
  model: string | undefined,
  reported: number | undefined,
  price: (catalogs: ModelCatalogs | undefined, unit?: string) => number | undefined,
): UnitCharge {
  const told = typeof reported === "number" && Number.isFinite(reported) ? reported : undefined;
  const unit = priceUnitOf(catalogs, model);
  if (unit && unit.creditsPerUnit === undefined) {
    const own =
      told === undefined ? ownUnitCharge(catalogs, model, price) : inUnit(unit.unit, told);
    return { credits: 0, ...(own ? { otherUnits: own } : {}) };
  }
  if (told !== undefined)
    return {
      credits: unit ? chargeInUnit(told * (unit.creditsPerUnit ?? 1)) : told,
      creditsFrom: "service",
    };
  const priced = price(catalogs);
  return priced === undefined ? { credits: 0 } : { credits: priced, creditsFrom: "price" };
}

/** The unit of a model whose price {@link creditCatalogs} dropped (no rate), with that price. */
function droppedUnit(
  catalogs: ModelCatalogs | undefined,
  model: string | undefined,
): (ModelPriceUnit & { ownPrice: unknown }) | undefined {
  const unit = priceUnitOf(catalogs, model) as
    | (ModelPriceUnit & { ownPrice?: unknown })
    | undefined;
  return unit && unit.creditsPerUnit === undefined && unit.ownPrice !== undefined
    ? (unit as ModelPriceUnit & { ownPrice: unknown })
    : undefined;
}

/** `{ [unit]: amount }`, exact to 1e-9, or undefined for no amount (unknown, or nothing). */
function inUnit(unit: string, amount: number | undefined): Record<string, number> | undefined {
  return amount === undefined || !Number.isFinite(amount) || amount === 0
    ? undefined
    : { [unit]: exactAmount(amount) };
}

/**
 * Takes a step priced in a unit other than credits, with no rate, out of the run's credits:
 * its cost goes to the run's total in its unit (`otherUnits`), never added to credits.
 * `models` are the models it is priced by (all in that unit); `creditsBefore` is the run's
 * credits before the step's estimate was added.
 * @example moveToUnit(runEstimate, estimate, [unit], creditsBefore);
 */
export function moveToUnit(
  runEstimate: RunEstimate,
  estimate: StepEstimate,
  models: readonly ModelPriceUnit[],
  creditsBefore: number,
): void {
  // To 1e-9: what floating point left of the subtraction is not a price.
  const amount = exactAmount(runEstimate.credits - creditsBefore);
  runEstimate.credits = creditsBefore;
  const unit = models[0]?.unit;
  if (unit === undefined) return;
  estimate.unit = unit;
  if (estimate.credits !== undefined) estimate.credits = exactAmount(estimate.credits);
  const total = unitTotal(runEstimate, unit);
  total.amount = exactAmount(total.amount + amount);
  if (estimate.credits === undefined) total.complete = false;
  for (const model of models) {
    if (!total.models.includes(model.id)) total.models.push(model.id);
    if (!total.providers.includes(model.provider)) total.providers.push(model.provider);
  }
}

/** One unit's price split by the unit each of its parts is in ({@link partsByUnit}). */
export interface PartsByUnit {
  /** True when a part is priced in credits (or in a unit at a rate to credits). */
  inCredits: boolean;
  /** Its parts in credits, summed (undefined when one of them has no price). */
  credits?: number;
  /** The least and the most of its parts in credits, when one of them is a range. */
  creditsRange?: { atLeast: number; atMost: number };
  /**
   * Its parts in units with no rate to credits, by unit: their sum (undefined when one has no
   * price) and the models priced in it.
   */
  otherUnits: Record<string, { amount?: number; models: ModelPriceUnit[] }>;
}

/**
 * What one planned unit costs, split by the unit each part is priced in: the kind's own
 * `parts` (one per model its requests use), else the whole unit priced by the step's `model`.
 * Parts whose model's provider bills in a unit with no rate to credits are totalled in that
 * unit; the rest in credits. `catalogs` are the run's, with their `price_units` section.
 * @example partsByUnit(catalogs, { credits: 1.3, parts: [{ model: "dollar-voice", credits: 0.3 }, { model: "reel-transcribe-1", credits: 1 }] }, "dollar-voice") // { inCredits: true, credits: 1, otherUnits: { usd: { amount: 0.3, models: [...] } } }
 */
export function partsByUnit(
  catalogs: ModelCatalogs | undefined,
  planned: PlannedUnit,
  model: string | undefined,
): PartsByUnit {
  const parts = planned.parts ?? [
    {
      model: model ?? "",
      ...(planned.credits !== undefined ? { credits: planned.credits } : {}),
      ...(planned.creditsRange ? { creditsRange: planned.creditsRange } : {}),
    },
  ];
  const split: PartsByUnit = { inCredits: false, otherUnits: {} };
  let credits: number | undefined = 0;
  let least = 0;
  let most = 0;
  let ranged = false;
  for (const part of parts) {
    const unit = priceUnitOf(catalogs, part.model);
    if (unit && unit.creditsPerUnit === undefined) {
      const total = split.otherUnits[unit.unit] ?? { amount: 0, models: [] };
      split.otherUnits[unit.unit] = total;
      total.amount =
        total.amount === undefined || part.credits === undefined
          ? undefined
          : exactAmount(total.amount + part.credits);
      if (!total.models.some((entry) => entry.id === unit.id)) total.models.push(unit);
      continue;
    }
    split.inCredits = true;
    credits =
      credits === undefined || part.credits === undefined ? undefined : credits + part.credits;
    ranged ||= part.creditsRange !== undefined;
    least += part.creditsRange?.atLeast ?? part.credits ?? 0;
    most += part.creditsRange?.atMost ?? part.credits ?? 0;
  }
  if (!split.inCredits) return split;
  if (credits !== undefined) split.credits = exactAmount(credits);
  if (ranged && credits !== undefined)
    split.creditsRange = { atLeast: exactAmount(least), atMost: exactAmount(most) };
  return split;
}

/**
 * Adds a step's part in a unit with no rate to credits to the run's total in that unit, and
 * to the step's estimate (`otherUnits`): `perUnit` times its `units` when both are known,
 * else the total in the unit is known only at run time.
 * @example addUnitPart(runEstimate, estimate, "usd", { amount: 0.3, models }, 2); // usd total + 0.6
 */
export function addUnitPart(
  runEstimate: RunEstimate,
  estimate: StepEstimate,
  unit: string,
  part: PartsByUnit["otherUnits"][string],
  units: number | undefined,
): void {
  const amount =
    part.amount === undefined || units === undefined ? undefined : exactAmount(part.amount * units);
  estimate.otherUnits ??= {};
  estimate.otherUnits[unit] = {
    ...(part.amount !== undefined ? { perUnit: part.amount } : {}),
    ...(amount !== undefined ? { amount } : {}),
  };
  const total = unitTotal(runEstimate, unit);
  if (amount === undefined) total.complete = false;
  else total.amount = exactAmount(total.amount + amount);
  for (const model of part.models) {
    if (!total.models.includes(model.id)) total.models.push(model.id);
    if (!total.providers.includes(model.provider)) total.providers.push(model.provider);
  }
}

/** The run's total in `unit`, made empty when it has none yet. */
function unitTotal(runEstimate: RunEstimate, unit: string) {
  runEstimate.otherUnits ??= {};
  const total = runEstimate.otherUnits[unit] ?? {
    amount: 0,
    complete: true,
    models: [],
    providers: [],
  };
  runEstimate.otherUnits[unit] = total;
  return total;
}

/**
 * A run's totals in other units worked out again from its steps' estimates (once a fan-out's
 * size made one of them known): a step wholly in a unit counts its `credits` (the least it
 * costs, when its size is still a range), a step with parts in units counts their amounts.
 * A total stays incomplete while one of its steps' amounts is unknown. Its models and
 * providers stay as the plan named them.
 * @example settleUnitTotals(estimate); // estimate.otherUnits.usd.amount from its steps
 */
export function settleUnitTotals(estimate: RunEstimate): void {
  for (const [unit, total] of Object.entries(estimate.otherUnits ?? {})) {
    let amount = 0;
    let complete = true;
    for (const step of Object.values(estimate.steps)) {
      if (step.unit === unit) {
        const least =
          step.credits ??
          (step.perUnit !== undefined && step.unitsAtLeast !== undefined
            ? step.perUnit * step.unitsAtLeast
            : undefined);
        if (step.credits === undefined) complete = false;
        amount += least ?? 0;
      }
      const part = step.otherUnits?.[unit];
      if (!part) continue;
      if (part.amount === undefined) complete = false;
      amount += part.amount ?? 0;
    }
    total.amount = exactAmount(amount);
    total.complete = complete;
  }
}
