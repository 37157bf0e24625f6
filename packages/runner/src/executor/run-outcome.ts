import type { ErrorCategory } from "@reelsmith/core/errors";
import { serializeError } from "../errors/serialize-error.js";
import type { SubPipelineDepthError } from "../errors/sub-pipeline-depth-error.js";
import { SubPipelineFailedError } from "../errors/sub-pipeline-failed-error.js";
import type { RunEventOf, RunStatus, SerializedError } from "../events/run-event.js";
import { evaluateValue } from "../expressions/index.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import { kindOf } from "../steps/registry.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import type { ExecuteResult } from "./execute-pipeline.js";

/**
 * The steps as `run.start` announces them: id, kind name, whether it fans out and how its
 * kind is shown (`report`), so a reader without the kind's code (the report, the studio)
 * shows any kind. Shared by every executor, so the CLI and the report read one shape.
 * @example bus.emit({ type: "run.start", …, steps: runStartSteps(spec, kinds) });
 */
export function runStartSteps(
  spec: PipelineSpec,
  kinds: ReadonlyMap<string, AnyStepKind>,
): RunEventOf<"run.start">["steps"] {
  return spec.steps.map((step) => {
    const kind = kindOf(step as Record<string, unknown>, kinds);
    return {
      id: step.id,
      kind: kind?.kind ?? "unknown",
      fanOut: step.for_each !== undefined,
      ...(kind?.report ? { report: kind.report } : {}),
    };
  });
}

/** How a run ended: its status, its outputs, and its headline error. */
export interface RunEnding {
  status: RunStatus;
  outputs: Record<string, unknown>;
  error?: SerializedError;
}

/** The run statuses an error's category gives its run; any other error fails it. */
const STATUS_OF_CATEGORY: Partial<Record<ErrorCategory, RunStatus>> = {
  budget: "budget_reached",
  rejected: "rejected",
};

/**
 * How a run ended, from what its DAG gave (every executor decides it here): cancelled when
 * it was; else failed with its first error (or `error`, which an executor knows better — a
 * budget refusal seen elsewhere), `budget_reached` or `rejected` when that error says so;
 * else `waiting` when a gate waits for a decision; else succeeded with the pipeline's
 * `outputs` evaluated, or failed when they cannot be.
 * @example const { status, outputs, error } = settleRun(spec, await executePipeline(…));
 */
export function settleRun(
  spec: PipelineSpec,
  result: Pick<ExecuteResult, "cancelled" | "error" | "context"> &
    Partial<Pick<ExecuteResult, "waiting">>,
  options: { error?: unknown } = {},
): RunEnding {
  const cause = options.error ?? result.error;
  if (result.cancelled) return { status: "cancelled", outputs: {} };
  if (cause !== undefined) {
    const error = serializeError(cause);
    // Stopped by its credit budget, or a rejected gate: a status of its own.
    const status = STATUS_OF_CATEGORY[error.category ?? "failed"] ?? "failed";
    return { status, outputs: {}, error };
  }
  if (result.waiting && result.waiting.length > 0) return { status: "waiting", outputs: {} };
  if (!spec.outputs) return { status: "succeeded", outputs: {} };
  try {
    const outputs = evaluateValue(spec.outputs, result.context) as Record<string, unknown>;
    return { status: "succeeded", outputs };
  } catch (error) {
    return { status: "failed", outputs: {}, error: serializeError(error) };
  }
}

/**
 * What a chat tool gets back from the sub-pipeline it ran: its outputs; or, when it did not
 * succeed, SubPipelineFailedError (the model is told); or, when a pipeline below it was nested
 * too deep, that depth error, which ends every enclosing step instead of reaching the model.
 * @example return subPipelineOutputs("tools/clips.yaml", await runPipeline(file, { subRunOf }), trip);
 */
export function subPipelineOutputs(
  file: string,
  result: { status: RunStatus; outputs: Record<string, unknown>; error?: SerializedError },
  trip: { error?: SubPipelineDepthError },
): Record<string, unknown> {
  if (trip.error) throw trip.error;
  if (result.status !== "succeeded")
    throw new SubPipelineFailedError(file, result.status, result.error);
  return result.outputs;
}
