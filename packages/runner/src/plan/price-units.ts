import { priceUnitsSection } from "@reelsmith/core/catalog";
import type { ModelPriceUnit } from "@reelsmith/core/profile";
import type { ModelCatalogs } from "../steps/step-kind.js";
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
          typeof value === "number" ? value * rate : value,
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
 * What a charge for `model` came to in its own unit, when its provider's unit has no rate to
 * credits (its price was dropped from the run's credit catalogs by {@link creditCatalogs}):
 * `price` is the kind's own pricing, asked of the catalogs with the model's price put back.
 * The run totals it in that unit (`otherUnits`), never in its credits. Undefined otherwise.
 * @example ownUnitCharge(catalogs, "fal-ai/kling", (priced) => videoRequestPrice(params, videoModelsOf(priced))) // { usd: 0.25 }
 */
export function ownUnitCharge(
  catalogs: ModelCatalogs | undefined,
  model: string | undefined,
  price: (catalogs: ModelCatalogs) => number | undefined,
): Record<string, number> | undefined {
  const unit = priceUnitOf(catalogs, model) as
    | (ModelPriceUnit & { ownPrice?: unknown })
    | undefined;
  if (!catalogs || !unit || unit.creditsPerUnit !== undefined || unit.ownPrice === undefined)
    return undefined;
  const restored: Record<string, readonly { id: string }[]> = {};
  for (const [section, models] of Object.entries(catalogs))
    restored[section] =
      section === priceUnitsSection
        ? models
        : models.map((entry) =>
            entry.id === unit.id ? { ...entry, price: unit.ownPrice } : entry,
          );
  const amount = price(restored);
  return amount === undefined || !Number.isFinite(amount) || amount === 0
    ? undefined
    : { [unit.unit]: amount };
}

/**
 * Takes a step priced in a unit other than credits, with no rate, out of the run's credits:
 * its cost goes to the run's total in its unit (`otherUnits`), never added to credits.
 * `creditsBefore` is the run's credits before the step's estimate was added.
 * @example moveToUnit(runEstimate, "clips", estimate, unit, creditsBefore);
 */
export function moveToUnit(
  runEstimate: RunEstimate,
  estimate: StepEstimate,
  unit: ModelPriceUnit,
  creditsBefore: number,
): void {
  const amount = runEstimate.credits - creditsBefore;
  runEstimate.credits = creditsBefore;
  estimate.unit = unit.unit;
  runEstimate.otherUnits ??= {};
  const totals = runEstimate.otherUnits;
  const total = totals[unit.unit] ?? { amount: 0, complete: true, models: [], providers: [] };
  totals[unit.unit] = total;
  total.amount += amount;
  if (estimate.credits === undefined) total.complete = false;
  if (!total.models.includes(unit.id)) total.models.push(unit.id);
  if (!total.providers.includes(unit.provider)) total.providers.push(unit.provider);
}
