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
  const { budget, runId, pipelineDir, runSubPipeline } = context;
  return budget && runId !== undefined && pipelineDir !== undefined && runSubPipeline
    ? { ...context, budget, runId, pipelineDir, runSubPipeline }
    : undefined;
}
