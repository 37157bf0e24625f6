import { settleTotal } from "../executor/budget-admission.js";
import { statusName } from "../executor/unit-request.js";
import type { ExpressionContext } from "../expressions/index.js";
import type { RunState } from "../journal/journal-state.js";
import type { Ledger } from "../ledger/ledger.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { estimateKnownNow, type KnownNowOptions } from "../plan/estimate-known-now.js";
import type { RunEstimate } from "../plan/plan-types.js";

/**
 * A resumed run's estimate of the whole run, as known now: what its earlier sessions spent
 * (the ledger's figures, by step) with what is left to make, the steps not begun priced over
 * the outputs made so far (a narration from its text, a clip between its narration's bounds).
 * Every session so shows the same whole, and the last one's estimate is the run's.
 * @example const whole = await wholeRunEstimate(estimate, { pipeline, previous, ledger, kinds, inputs, runName });
 */
export async function wholeRunEstimate(
  estimate: RunEstimate,
  given: {
    pipeline: LoadedPipeline;
    previous: RunState;
    /** The run's ledger so far (its spending by step). */
    ledger: Pick<Ledger, "steps">;
    inputs: Record<string, unknown>;
    run: ExpressionContext["run"];
  } & Omit<KnownNowOptions, "context" | "steps" | "planned">,
): Promise<RunEstimate> {
  const { spec } = given.pipeline;
  const whole: RunEstimate = structuredClone(estimate);
  const steps: ExpressionContext["steps"] = {};
  for (const [id, journaled] of given.previous.steps)
    steps[id] = { outputs: journaled.outputs, status: statusName(journaled.status) };
  const begun = (id: string) => {
    const journaled = given.previous.steps.get(id);
    return (
      journaled?.status === "succeeded" ||
      [...(journaled?.items.values() ?? [])].some((item) => item.status === "succeeded")
    );
  };
  const notBegun = new Set(spec.steps.map((step) => step.id).filter((id) => !begun(id)));
  const known = await estimateKnownNow(spec, {
    kinds: given.kinds,
    catalogs: given.catalogs,
    cache: given.cache,
    context: { inputs: given.inputs, env: { ...(spec.env ?? {}) }, steps, run: given.run },
    steps: notBegun,
    planned: estimate,
  });
  for (const [id, step] of Object.entries(known.steps)) whole.steps[id] = step;
  for (const step of spec.steps) {
    const spent = given.ledger.steps[step.id]?.credits ?? 0;
    const left = whole.steps[step.id];
    const done = given.previous.steps.get(step.id)?.status === "succeeded";
    if (!begun(step.id) || (!left && spent === 0) || (spent === 0 && !done)) continue;
    whole.steps[step.id] =
      done || !left || left.units === 0
        ? { units: 0, credits: spent, ...(spent > 0 ? { spent } : {}) }
        : {
            ...left,
            spent,
            ...(left.credits === undefined ? {} : { credits: left.credits + spent }),
            ...(left.creditsAtMost === undefined
              ? {}
              : { creditsAtMost: left.creditsAtMost + spent }),
          };
  }
  settleTotal(whole);
  return whole;
}
