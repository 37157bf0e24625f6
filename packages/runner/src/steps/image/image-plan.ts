import { ownUnitOf } from "../../plan/price-units.js";
import type { PlanContext, PlannedUnit } from "../step-kind.js";
import { expectedImageCredits } from "./image-check.js";
import { imageModelsOf } from "./image-models.js";

/**
 * One image request per unit, making `n` images (default 1): `requests: { images: n }` and
 * the model's price × n when the model and `n` are known now (in its own unit when that has
 * no rate to credits).
 * @example planImage({ model: "reel-image-1", n: 2 }, { catalogs }) // { requests: { images: 2 }, credits: 8 }
 */
export function planImage(known: Record<string, unknown>, context: PlanContext): PlannedUnit {
  const n = known.n === undefined ? 1 : Number(known.n);
  const count = Number.isInteger(n) && n >= 1 ? n : 1;
  const planned: PlannedUnit = { requests: { images: count } };
  const model = typeof known.model === "string" ? known.model : undefined;
  if (!model) return planned;
  const spec = imageModelsOf(context.catalogs)?.find((entry) => entry.id === model);
  const problems: string[] = [];
  if (spec?.maxImages !== undefined && count > spec.maxImages)
    problems.push(`${spec.id} makes at most ${spec.maxImages} images per request; n is ${count}`);
  if (
    typeof known.size === "string" &&
    known.size !== "auto" &&
    spec?.sizes &&
    !spec.sizes.includes(known.size)
  )
    problems.push(`${spec.id} does not draw ${known.size}; it draws ${spec.sizes.join(", ")}`);
  if (problems.length > 0) planned.problems = problems;
  // In the price's own unit when it has no rate to credits: exact, never a whole unit.
  const credits = expectedImageCredits(spec, count, ownUnitOf(context.catalogs, model));
  if (credits !== undefined) planned.credits = credits;
  return planned;
}
