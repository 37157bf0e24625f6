import { reviveError } from "../errors/revive-error.js";
import type { DistributiveOmit, RunEvent } from "../events/run-event.js";
import type { StepState } from "../journal/journal-state.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import type { StepGraph } from "../plan/build-graph.js";
import type { StepSummary } from "./step-summary.js";

/**
 * A step and every step that depends on it, directly or through others.
 * @example downstreamOf("clips", graph) // Set { "clips", "final", "sheet", "poster" }
 */
export function downstreamOf(step: string, graph: StepGraph): Set<string> {
  const found = new Set([step]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [id, dependencies] of graph.dependencies) {
      if (found.has(id) || ![...dependencies].some((d) => found.has(d))) continue;
      found.add(id);
      grew = true;
    }
  }
  return found;
}

/**
 * A step a focused session (a retake, a pick) does not run: what its journal says it became
 * — its outputs when it succeeded (reused, so what depends on it may be too), its error when
 * it failed, skipped when it was (or never ran).
 * @example const { summary, event } = keptStep(step, state.steps.get(step.id));
 */
export function keptStep(
  step: StepSpec,
  journaled: StepState | undefined,
): {
  summary: Pick<StepSummary, "status" | "outputs" | "reused" | "error">;
  event: DistributiveOmit<RunEvent, "seq" | "time">;
  error?: Error;
} {
  if (journaled?.status === "succeeded") {
    return {
      summary: { status: "succeeded", outputs: journaled.outputs, reused: true },
      event: {
        type: "step.end",
        step: step.id,
        outputs: journaled.outputs,
        durationMs: 0,
        cached: false,
        reused: true,
      },
    };
  }
  if (journaled?.status === "failed" || journaled?.status === "running") {
    const serialized = journaled.error ?? {
      name: "Error",
      message: `step \`${step.id}\` did not finish; \`reelsmith resume\` runs it`,
    };
    return {
      summary: { status: "failed", outputs: journaled.outputs ?? {}, error: serialized },
      event: { type: "step.skip", step: step.id, reason: `kept as it was: ${serialized.message}` },
      error: reviveError(serialized),
    };
  }
  return {
    summary: { status: "skipped", outputs: {} },
    event: { type: "step.skip", step: step.id, reason: "kept as it was: skipped" },
  };
}
