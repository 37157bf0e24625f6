import {
  describeSeconds,
  describeSizes,
  estimateVideoCredits,
  findVideoRequestProblems,
  type VideoCreateParams,
} from "../../pipeline/core-shim.js";
import type { PlanContext, PlannedUnit } from "../step-kind.js";
import { paramsToCheck } from "./video-params.js";

/**
 * One video job per unit; the request's known values (`seconds`, `size`, `params`) checked
 * against the model's limits and declared parameters; the plan lists the limits.
 * @example planVideo({ model: "veo-3-fast", seconds: 12 }, { videoModels }) // { requests: { videoJobs: 1 }, problems: [...] }
 */
export function planVideo(known: Record<string, unknown>, context: PlanContext): PlannedUnit {
  const planned: PlannedUnit = { requests: { videoJobs: 1 } };
  const model = typeof known.model === "string" ? known.model : undefined;
  if (!model) return planned;
  const request: Record<string, unknown> = { model, prompt: "-" };
  if (known.seconds !== undefined) request.seconds = known.seconds;
  if (known.size !== undefined) request.size = known.size;
  const limits = context.videoModels?.find((entry) => entry.id === model);
  const params = paramsToCheck(known.params, limits, () => true);
  if (params) request.params = params;
  const problems = findVideoRequestProblems(
    request as unknown as VideoCreateParams,
    context.videoModels,
  ).map((problem) => ({ message: problem.message, field: problem.field.split(".") }));
  if (problems.length > 0) planned.problems = problems;
  const seconds = Number(known.seconds);
  const credits =
    limits && Number.isFinite(seconds)
      ? estimateVideoCredits(
          limits,
          seconds,
          typeof known.size === "string" ? known.size : undefined,
        )
      : undefined;
  if (credits !== undefined) planned.credits = credits;
  planned.model = {
    id: model,
    ...(limits?.seconds ? { seconds: describeSeconds(limits.seconds) } : {}),
    ...(limits?.sizes ? { sizes: describeSizes(limits.sizes) } : {}),
  };
  return planned;
}
