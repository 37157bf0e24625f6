import type { RunServices, StepRunContext } from "../steps/step-kind.js";

/** What the executor gives a step kind beyond its basic context (see `RunServices`). */
export type ExecutionExtras = RunServices;

/** The full context the executor passes to `StepKind.run`. */
export type ExecutionContext = StepRunContext & ExecutionExtras;

/**
 * Reads the executor's services from a step context, all of them or none (undefined when a
 * kind is run by hand, outside a run).
 * @example const extras = executionExtras(context); const dir = extras?.pipelineDir ?? process.cwd();
 */
export function executionExtras(context: StepRunContext): ExecutionExtras | undefined {
  return hasRunServices(context) ? context : undefined;
}

/** True when a run gave the context its services (a run sets them all at once). */
function hasRunServices(context: StepRunContext): context is ExecutionContext {
  return (
    context.budget !== undefined &&
    context.runId !== undefined &&
    context.pipelineDir !== undefined &&
    context.runSubPipeline !== undefined
  );
}
