import type { ExpressionContext } from "../expressions/index.js";
import { conditionUsesStatusFunction, evaluateCondition } from "../expressions/index.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import type { StepSummary } from "./step-summary.js";

/** Whether a step runs now: it runs, or it is skipped for a reason. */
export type GateVerdict = { run: true } | { run: false; reason: string };

/**
 * The gate a step passes once what it depends on has settled (GitHub Actions' rules): a step
 * waits on the success of what it needs unless its `if:` asks for a status itself
 * (`always()`, `failure()`…); an `if:` that is false skips it; without an `if:`, an earlier
 * failure skips it. Throws when the condition cannot be evaluated (the step then fails).
 * @example gateStep(step, { dependencies, summaries, context, failed: false }) // { run: true }
 */
export function gateStep(
  step: StepSpec,
  state: {
    dependencies: readonly string[];
    summaries: Readonly<Record<string, StepSummary>>;
    context: ExpressionContext;
    /** A step before failed without `continue_on_error`. */
    failed: boolean;
  },
): GateVerdict {
  const { summaries } = state;
  const usesStatus = step.if !== undefined && conditionUsesStatusFunction(step.if);
  const blocker = state.dependencies.find(
    (d) =>
      ["skipped", "cancelled"].includes(summaries[d]?.status ?? "") ||
      (summaries[d]?.status === "failed" && !summaries[d]?.continued),
  );
  if (blocker && !usesStatus) {
    return { run: false, reason: `needs "${blocker}", which was ${summaries[blocker]?.status}` };
  }
  if (step.if !== undefined) {
    const conditionContext = {
      ...state.context,
      status: state.failed ? ("failure" as const) : ("success" as const),
    };
    if (!evaluateCondition(step.if, conditionContext))
      return { run: false, reason: `if: ${step.if} was false` };
  }
  if (step.if === undefined && state.failed)
    return { run: false, reason: "an earlier step failed" };
  return { run: true };
}
