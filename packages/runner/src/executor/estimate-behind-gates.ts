import type { WaitingGate } from "../events/run-event.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { estimateKnownNow, type KnownNowOptions } from "../plan/estimate-known-now.js";
import { type PlanOptions, planPipeline } from "../plan/plan-pipeline.js";
import type { RunEstimate } from "../plan/plan-types.js";
import { kindsByName } from "../steps/registry.js";
import type { ExecuteResult } from "./execute-pipeline.js";

/**
 * What a run stopped at its gates will tell: the gates, and what the steps that wait behind
 * them are expected to cost once they go on, as known now: their requests evaluated over the
 * outputs made so far (the storyboard's scenes, each narration's text) and priced by their
 * kinds; what reads an output not made yet (a clip as long as its narration) is priced
 * between the bounds its kind expects of it, so the estimate may be a range. A unit the cache
 * holds costs 0. A step whose price or size stays unknown makes the estimate incomplete.
 * @example bus.emit({ type: "run.waiting", ...(await behindGates(pipeline, result, planOptions)) });
 */
export async function behindGates(
  pipeline: LoadedPipeline,
  result: Pick<ExecuteResult, "steps" | "waiting" | "context">,
  options: PlanOptions & { cache?: KnownNowOptions["cache"] },
): Promise<{ gates: WaitingGate[]; next: RunEstimate }> {
  const gates = result.waiting.map((step) => {
    const waiting = result.steps[step]?.waiting;
    return {
      step,
      reason: waiting?.reason ?? "waits",
      ...(waiting?.details ? { details: waiting.details } : {}),
    };
  });
  const { spec } = pipeline;
  const waiting = new Set(
    spec.steps.filter((step) => result.steps[step.id]?.status === "waiting").map((s) => s.id),
  );
  const plan = planPipeline(pipeline, options);
  const next = await estimateKnownNow(spec, {
    kinds: kindsByName(options.stepKinds),
    catalogs: options.catalogs,
    context: result.context,
    steps: waiting,
    planned: plan.limits.estimate,
    cache: options.cache,
  });
  return { gates, next };
}
