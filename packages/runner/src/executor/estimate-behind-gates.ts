import type { WaitingGate } from "../events/run-event.js";
import { evaluateValue } from "../expressions/index.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { type PlanOptions, planPipeline } from "../plan/plan-pipeline.js";
import type { RunEstimate, StepEstimate } from "../plan/plan-types.js";
import type { ExecuteResult } from "./execute-pipeline.js";
import type { PipelineForRun } from "./load-for-run.js";

/**
 * What a run stopped at its gates will tell: the gates, and what the steps that wait behind
 * them are expected to cost once they go on. A fan-out's size is counted from the outputs
 * made so far (the storyboard's scenes are known once it ran), its price per unit from the
 * plan; a step whose price or size stays unknown makes the estimate incomplete.
 * @example bus.emit({ type: "run.waiting", ...behindGates(pipeline, result, planOptions) });
 */
export function behindGates(
  pipeline: PipelineForRun | LoadedPipeline,
  result: Pick<ExecuteResult, "steps" | "waiting" | "context">,
  options: PlanOptions,
): { gates: WaitingGate[]; next: RunEstimate } {
  const gates = result.waiting.map((step) => {
    const waiting = result.steps[step]?.waiting;
    return {
      step,
      reason: waiting?.reason ?? "waits",
      ...(waiting?.details ? { details: waiting.details } : {}),
    };
  });
  const plan = planPipeline(pipeline as unknown as LoadedPipeline, options);
  const next: RunEstimate = { credits: 0, complete: true, steps: {} };
  for (const step of (pipeline as PipelineForRun).spec.steps) {
    if (result.steps[step.id]?.status !== "waiting") continue;
    const planned = plan.limits.estimate.steps[step.id];
    if (!planned) continue; // it costs nothing
    let units = step.for_each === undefined ? 1 : planned.units;
    if (units === undefined) {
      try {
        const list = evaluateValue(step.for_each, result.context);
        if (Array.isArray(list)) units = list.length;
      } catch {
        // Read from a step that has not run yet: known once it has.
      }
    }
    const estimate: StepEstimate = {
      ...(planned.perUnit === undefined ? {} : { perUnit: planned.perUnit }),
      ...(units === undefined ? {} : { units }),
    };
    if (planned.perUnit !== undefined && units !== undefined) {
      estimate.credits = planned.perUnit * units;
      next.credits += estimate.credits;
    } else {
      next.complete = false;
    }
    next.steps[step.id] = estimate;
  }
  return { gates, next };
}
