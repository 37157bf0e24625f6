import {
  describeSeconds,
  describeSizes,
  estimateVideoCredits,
  findVideoRequestProblems,
  type VideoCreateParams,
} from "../../pipeline/core-shim.js";
import { ownUnitOf } from "../../plan/price-units.js";
import type { PlanContext, PlannedUnit } from "../step-kind.js";
import { videoModelsOf } from "./video-models.js";
import { paramsToCheck } from "./video-params.js";
import { isAtLeastSeconds, roundUpSeconds, secondsAtLeast } from "./video-seconds.js";

/**
 * One video job per unit; the request's known values (`seconds`, `size`, `params`) checked
 * against the model's limits and declared parameters; the plan lists the limits.
 * @example planVideo({ model: "veo-3-fast", seconds: 12 }, { catalogs }) // { requests: { videoJobs: 1 }, problems: [...] }
 */
export function planVideo(known: Record<string, unknown>, context: PlanContext): PlannedUnit {
  const planned: PlannedUnit = { requests: { videoJobs: 1 } };
  const model = typeof known.model === "string" ? known.model : undefined;
  if (!model) return planned;
  const request: Record<string, unknown> = { model, prompt: "-" };
  const videoModels = videoModelsOf(context.catalogs);
  const limits = videoModels?.find((entry) => entry.id === model);
  const lengthProblems: string[] = [];
  let seconds: unknown = known.seconds;
  if (isAtLeastSeconds(seconds)) {
    // Known here only when `at_least` is a number: a narration's duration is known once it
    // is spoken, so such a clip is left unpriced (the estimate says it is incomplete) rather
    // than priced at the model's longest, which would be a bound, not an estimate.
    const atLeast = secondsAtLeast(seconds);
    try {
      seconds = atLeast === undefined ? undefined : roundUpSeconds(atLeast, limits);
    } catch (error) {
      lengthProblems.push((error as Error).message);
      seconds = undefined;
    }
  }
  if (seconds !== undefined) request.seconds = seconds;
  if (known.size !== undefined) request.size = known.size;
  const params = paramsToCheck(known.params, limits, () => true);
  if (params) request.params = params;
  const problems = findVideoRequestProblems(
    request as unknown as VideoCreateParams,
    videoModels,
  ).map((problem): { message: string; field?: (string | number)[] } => ({
    message: problem.message,
    field: problem.field.split("."),
  }));
  problems.push(...lengthProblems.map((message) => ({ message, field: ["seconds"] })));
  if (problems.length > 0) planned.problems = problems;
  const length = Number(seconds);
  const credits =
    limits && seconds !== undefined && Number.isFinite(length)
      ? estimateVideoCredits(
          limits,
          length,
          typeof known.size === "string" ? known.size : undefined,
          // In the price's own unit when it has no rate to credits: exact, never rounded up.
          ownUnitOf(context.catalogs, model),
        )
      : undefined;
  if (credits !== undefined) planned.credits = credits;
  planned.model = { id: model, ...(limits ? describedLimits(limits) : {}) };
  return planned;
}

type ModelLimits = NonNullable<ReturnType<typeof videoModelsOf>>[number];

const described = new WeakMap<ModelLimits, { seconds?: string; sizes?: string }>();

/**
 * A model's limits as the plan lists them, written once per model: a fan-out of thousands of
 * clips plans each of them when its length is known.
 */
function describedLimits(limits: ModelLimits): { seconds?: string; sizes?: string } {
  let text = described.get(limits);
  if (!text) {
    text = {
      ...(limits.seconds ? { seconds: describeSeconds(limits.seconds) } : {}),
      ...(limits.sizes ? { sizes: describeSizes(limits.sizes) } : {}),
    };
    described.set(limits, text);
  }
  return text;
}
