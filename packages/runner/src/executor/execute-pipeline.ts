import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import type { ExecuteOptions, ExecuteResult } from "./execute-options.js";
import { createExecution, failStep } from "./execution-state.js";
import { runStep } from "./run-step.js";

export type { ExecuteOptions, ExecuteResult } from "./execute-options.js";
export { kindOfStep } from "./run-step.js";
export type { StepSummary } from "./step-summary.js";

/**
 * Executes a pipeline's DAG: each step starts when the steps it depends on have settled,
 * then passes its gate (GitHub's rules for `needs` and `if:`), is reused from the journal
 * when resuming, or runs its units (one, or one per `for_each` item) within the run's global
 * slots. Every journal record is durable before what it records is acted on: a step's start
 * before its units run, its end before its dependents start.
 * @example const result = await executePipeline({ spec, graph, kinds, ... });
 */
export async function executePipeline(options: ExecuteOptions): Promise<ExecuteResult> {
  const run = createExecution(options);
  const { spec } = options;
  const { stop, summaries, context, totals } = run;
  // The DAG loop: one gate per step, created before any step starts (so the order in which
  // steps start never matters); each step waits for the gates of what it depends on.
  const settled = new Map<string, Promise<void>>();
  const open = new Map<string, () => void>();
  for (const step of spec.steps) {
    settled.set(step.id, new Promise<void>((resolve) => open.set(step.id, resolve)));
  }
  const byId = new Map(spec.steps.map((step) => [step.id, step]));
  const order = new Set([...options.graph.order, ...spec.steps.map((step) => step.id)]);
  await Promise.all(
    [...order].map(async (id) => {
      const step = byId.get(id);
      if (!step) return;
      const dependencies = [...(options.graph.dependencies.get(id) ?? [])];
      await Promise.all(dependencies.map((d) => settled.get(d)));
      await runStep(run, step, dependencies).catch((error) =>
        failStep(run, step, "unknown", Date.now(), error),
      );
      open.get(id)?.();
    }),
  );
  if (options.budget.refused && options.budget.maxCredits !== undefined) {
    // The budget stopped submissions: that is the run's headline error.
    run.runError = new BudgetExceededError(options.budget.spent, options.budget.maxCredits);
  }
  const ledgerTotals = options.ledger
    ? { ...options.ledger.total(), cachedSteps: totals.cachedSteps }
    : totals;
  return {
    steps: summaries,
    totals: ledgerTotals,
    error: run.runError,
    // Stopped with work left undone (a stop after the last step finished changes nothing).
    cancelled:
      stop.aborted && Object.values(summaries).some((summary) => summary.status === "cancelled"),
    waiting: spec.steps
      .map((step) => step.id)
      .filter((id) => summaries[id]?.status === "waiting" && !summaries[id]?.waiting?.on),
    context,
  };
}
