import type { LoadedPipeline } from "@reelsmith/runner/validate";
import type { ModelCatalogs } from "../services/known-model-catalogs.js";
import type { Alternative } from "./tool-result.js";

/** What a refused run was, for the runs that would fit instead. */
export interface RefusedRun {
  file: string;
  pipeline: LoadedPipeline;
  /** The inputs the call gave (the alternatives change one of them). */
  given: Record<string, unknown>;
  /** The inputs as the run would have seen them (defaults filled in). */
  inputs: Record<string, unknown>;
  /** The model catalogs the run was priced with, by profile section (`video_models`, …). */
  catalogs?: ModelCatalogs;
  /** Credits the run may spend. */
  limit: number;
  /** The other arguments of the call (kept in each alternative). */
  call: Record<string, unknown>;
}

/** How many values a search for a smaller input tries at most. */
const MAX_TRIES = 40;

/**
 * Runs like a refused one that fit its limit: the largest value of each whole-number or list
 * input that makes the estimate's certain part fit (e.g. fewer `scenes`), and each other
 * model of the same catalog that fits when an input names a model of a catalog. Each is planned
 * as the refused run was; none has a plan problem.
 * @example const alternatives = await smallerRuns({ file, pipeline, given, inputs, limit: 20, call: {} });
 */
export async function smallerRuns(run: RefusedRun): Promise<Alternative[]> {
  const { planPipeline } = await import("@reelsmith/runner");
  const { resolveInputs } = await import("@reelsmith/runner/validate");
  const priced = (change: Record<string, unknown>): number | undefined => {
    try {
      const inputs = resolveInputs(run.pipeline, { ...run.given, ...change });
      const plan = planPipeline(run.pipeline, {
        inputs,
        ...(run.catalogs ? { catalogs: run.catalogs } : {}),
      });
      return plan.problems.length > 0 ? undefined : plan.limits.estimate.credits;
    } catch {
      return undefined;
    }
  };
  const alternative = (name: string, value: unknown, credits: number, why: string) => ({
    tool: "run",
    arguments: { ...run.call, pipeline: run.file, inputs: { ...run.given, [name]: value } },
    why,
    estimate: credits,
  });
  const found: Alternative[] = [];
  const declared = (run.pipeline.spec.inputs ?? {}) as Record<string, { type?: string }>;
  for (const [name, spec] of Object.entries(declared)) {
    const current = run.inputs[name];
    // The largest size from 1 up that fits, by halving (the cost grows with the size).
    const sized =
      spec.type === "integer" && typeof current === "number" && current > 1
        ? { size: current, valueOf: (size: number) => size }
        : spec.type === "array" && Array.isArray(current) && current.length > 1
          ? { size: current.length, valueOf: (size: number) => current.slice(0, size) }
          : undefined;
    if (!sized) continue;
    let low = 1;
    let high = sized.size - 1;
    let best: { size: number; credits: number } | undefined;
    for (let tries = 0; low <= high && tries < MAX_TRIES; tries += 1) {
      const middle = Math.floor((low + high) / 2);
      const credits = priced({ [name]: sized.valueOf(middle) });
      if (credits !== undefined && credits <= run.limit) {
        best = { size: middle, credits };
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    const full = priced({ [name]: sized.valueOf(sized.size) });
    if (best && full !== undefined && best.credits < full) {
      found.push(
        alternative(
          name,
          sized.valueOf(best.size),
          best.credits,
          `${name} ${spec.type === "array" ? `with its first ${best.size} items` : `= ${best.size}`} is expected to cost ${best.credits} credits, within ${run.limit}`,
        ),
      );
    }
  }
  for (const [name, value] of Object.entries(run.inputs)) {
    if (typeof value !== "string") continue;
    const section = Object.entries(run.catalogs ?? {}).find(
      ([section, models]) =>
        section.endsWith("_models") && models.some((model) => model.id === value),
    );
    if (!section) continue;
    const [catalogName, catalog] = section;
    const fits = catalog
      .filter((model) => model.id !== value)
      .map((model) => ({ id: model.id, credits: priced({ [name]: model.id }) }))
      .filter(
        (entry): entry is { id: string; credits: number } =>
          entry.credits !== undefined && entry.credits <= run.limit,
      )
      .sort((a, b) => b.credits - a.credits);
    for (const entry of fits.slice(0, 3)) {
      found.push(
        alternative(
          name,
          entry.id,
          entry.credits,
          `the ${catalogName.replace(/_models$/, "").replaceAll("_", " ")} model ${entry.id} is expected to cost ${entry.credits} credits, within ${run.limit}`,
        ),
      );
    }
  }
  return found;
}
