import type { PipelineProblem } from "../pipeline/check/check-model.js";
import { PipelineLoadError } from "../pipeline/errors/pipeline-load-error.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { kindOf, kindsByName } from "../steps/registry.js";
import type { AnyStepKind, StepKindSpec } from "../steps/step-kind.js";
import type { Plan } from "./plan-types.js";

/** What a pipeline needs to place its problems: its path, its steps and, when read from a file, positions. */
type PlacedPipeline = Pick<LoadedPipeline, "path"> & {
  spec: { steps: readonly { id: string }[]; defaults?: unknown };
  positionOf?: LoadedPipeline["positionOf"];
  /** The YAML text, for the line a problem quotes under its position. */
  source?: string;
};

/**
 * Problems found before a run, as the pipeline's diagnostics at their positions (line 1 for
 * a pipeline given as an object).
 * @example throw invalidPipeline(pipeline, [{ path: ["steps", 0, "video"], message, code, severity: "error" }]);
 */
export function invalidPipeline(
  pipeline: PlacedPipeline,
  problems: readonly PipelineProblem[],
): PipelineLoadError {
  const { positionOf } = pipeline;
  const lines = typeof positionOf === "function" ? pipeline.source?.split(/\r?\n/) : undefined;
  return new PipelineLoadError(
    "pipeline_invalid",
    pipeline.path,
    problems.map((problem) => {
      const at =
        typeof positionOf === "function" ? positionOf(problem.path) : { line: 1, column: 1 };
      const sourceLine = lines?.[at.line - 1];
      return {
        severity: problem.severity,
        code: problem.code,
        message: problem.message,
        file: pipeline.path,
        ...at,
        ...(sourceLine === undefined ? {} : { sourceLine }),
        ...(problem.hint ? { hint: problem.hint } : {}),
      };
    }),
  );
}

/**
 * Where a step's field is written: in its own body, else in `defaults.<kind>`, else the body
 * (a field made of an input points at the `${{ inputs.… }}` that brings it).
 */
function fieldPath(
  pipeline: PlacedPipeline,
  index: number,
  kind: string | undefined,
  field: readonly (string | number)[] | undefined,
): (string | number)[] {
  if (!kind) return ["steps", index];
  const own: (string | number)[] = ["steps", index, kind];
  const head = field?.[0];
  if (!field || head === undefined) return own;
  const has = (value: unknown) =>
    value !== null && typeof value === "object" && Object.hasOwn(value, head);
  const body = (pipeline.spec.steps[index] as Record<string, unknown> | undefined)?.[kind];
  if (has(body)) return [...own, ...field];
  const defaults = (pipeline.spec.defaults as Record<string, unknown> | undefined)?.[kind];
  if (has(defaults)) return ["defaults", kind, ...field];
  return own;
}

/**
 * The problems of a run's plan — requests made of its inputs (a model, a length, a size)
 * that its models do not take — as an error at each step's kind body, or undefined. Every
 * executor refuses such a run before anything is paid.
 * @example const refused = planProblems(pipeline, planRun(pipeline, { inputs, catalogs })); if (refused) throw refused;
 */
export function planProblems(
  pipeline: PlacedPipeline,
  plan: Pick<Plan, "problems">,
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[],
): PipelineLoadError | undefined {
  if (plan.problems.length === 0) return undefined;
  const kinds = kindsByName(stepKinds);
  return invalidPipeline(
    pipeline,
    plan.problems.map((problem) => {
      const index = pipeline.spec.steps.findIndex((step) => step.id === problem.step);
      const kind = kindOf((pipeline.spec.steps[index] ?? {}) as Record<string, unknown>, kinds);
      return {
        severity: "error",
        code: "request_invalid",
        message: `${problem.message} (with the run's inputs)`,
        path: fieldPath(pipeline, index, kind?.kind, problem.field),
        hint: "change the input (--input), or the step's value",
      };
    }),
  );
}
