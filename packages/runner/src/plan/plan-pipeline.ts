import { unitBody } from "../executor/unit-request.js";
import { defineKey } from "../expressions/convert.js";
import { evaluateValue } from "../expressions/evaluate.js";
import {
  collectReferencePaths,
  collectReferences,
  containsExpression,
} from "../expressions/references.js";
import { wholeExpression } from "../expressions/template.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { resolveInputs } from "../pipeline/resolve-inputs.js";
import { kindOf, kindsByName } from "../steps/registry.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";
import { buildGraph } from "./build-graph.js";
import { listBounds } from "./list-bounds.js";
import type {
  Plan,
  PlannedFanOut,
  PlannedStep,
  PlanStage,
  RunEstimate,
  StepEstimate,
} from "./plan-types.js";

/** Options of `planPipeline`. */
export interface PlanOptions {
  /** Input values as given to a run (CLI strings are coerced). */
  inputs?: Record<string, unknown>;
  /** The model catalogs, by provider profile section (`video_models`, `image_models`, …): prices and limits. */
  catalogs?: ModelCatalogs;
  /** The step kinds the pipeline uses (default: the built-in ones). */
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[];
  /** Units of a step a resumed run already has (they cost nothing more). */
  journaled?: (step: string) => number;
}

type Known = { ok: true; value: unknown } | { ok: false };

/** A value is known before the run when its expressions read only inputs and env. */
function staticValue(
  value: unknown,
  context: Parameters<typeof evaluateValue>[1] | undefined,
): Known {
  if (!containsExpression(value)) return { ok: true, value };
  const references = collectReferences(value);
  if (!context || references.steps.size > 0 || references.usesItem) return { ok: false };
  // The run's id and directory exist only once it runs.
  if (
    collectReferencePaths(value).some(
      (reference) =>
        reference.context === "run" && (reference.path[0] === "id" || reference.path[0] === "dir"),
    ) ||
    collectReferencePaths(value).some((reference) => reference.context === "previous")
  )
    return { ok: false };
  try {
    return { ok: true, value: evaluateValue(value, context) };
  } catch {
    return { ok: false };
  }
}

/**
 * Work out what a valid pipeline will do: stages of steps that run together, fan-outs
 * (with their size when known now), each request with the values already known (literals
 * and expressions over inputs/env, pipeline defaults merged), and the limits that apply
 * (video models' limits, credit budget, number of jobs).
 *
 * @example
 * ```ts
 * const plan = planPipeline(await loadPipeline("storyboard.yaml"), { inputs: { scenes: "4" } });
 * plan.stages.map((stage) => stage.steps); // [["storyboard"], ["clips"], ["final", "sheet"]]
 * ```
 */
export function planPipeline(pipeline: LoadedPipeline, options: PlanOptions = {}): Plan {
  const { spec } = pipeline;
  const notes: string[] = [];
  const problems: Plan["problems"] = [];
  let inputs: Record<string, unknown> | undefined;
  try {
    inputs = resolveInputs(pipeline, options.inputs ?? {});
  } catch (error) {
    notes.push(`values that depend on inputs are unknown: ${(error as Error).message}`);
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.env ?? {})) defineKey(env, key, String(value));
  const context = inputs
    ? { inputs, env, steps: {}, run: { id: "(plan)", dir: "", name: spec.name } }
    : undefined;

  const graph = buildGraph(pipeline);
  const stageOf = new Map<string, number>();
  for (const id of graph.order) {
    let stage = 0;
    for (const dependency of graph.dependencies.get(id) ?? [])
      stage = Math.max(stage, (stageOf.get(dependency) ?? -1) + 1);
    stageOf.set(id, stage);
  }
  const stages: PlanStage[] = [];
  for (const step of spec.steps) {
    const index = stageOf.get(step.id) ?? 0;
    while (stages.length <= index) stages.push({ index: stages.length, steps: [] });
    stages[index]?.steps.push(step.id);
  }

  const kinds = kindsByName(options.stepKinds);
  const videoModels = new Map<
    string,
    { model: string; seconds?: string; sizes?: string; steps: string[] }
  >();
  const runEstimate: RunEstimate = { credits: 0, complete: true, steps: {} };
  const requests: Record<string, number | undefined> = {};
  const requestLabels: Record<string, string> = {};
  const steps: PlannedStep[] = spec.steps.map((step) => {
    const kind = kindOf(step as Record<string, unknown>, kinds);
    const kindName = kind?.kind ?? "unknown";
    const body = unitBody(step as Record<string, unknown>, kindName, spec.defaults);
    const known: Record<string, unknown> = {};
    const pending: string[] = [];
    for (const [key, value] of Object.entries(body)) {
      const result = staticValue(value, context);
      if (result.ok) defineKey(known, key, result.value);
      else pending.push(key);
    }
    let fanOut: PlannedFanOut | undefined;
    let count: number | undefined = 1;
    if (step.for_each !== undefined) {
      const list = staticValue(step.for_each, context);
      // A sequential fan-out runs one item at a time.
      fanOut = { maxParallel: step.sequential === true ? 1 : step.max_parallel };
      if (list.ok && Array.isArray(list.value)) fanOut.items = list.value.length;
      else if (typeof step.for_each === "string") {
        fanOut.from = wholeExpression(step.for_each) ?? step.for_each;
        // A list an earlier step makes: bounded by what its kind says of it (a JSON Schema's
        // minItems/maxItems, which may read inputs).
        const bounds = listBounds(
          step.for_each,
          spec as unknown as Parameters<typeof listBounds>[1],
          kinds,
          (value) => {
            const known = staticValue(value, context);
            if (!known.ok) throw new Error("unknown");
            return known.value;
          },
        );
        if (bounds && bounds.max === bounds.min) fanOut.items = bounds.min;
        else if (bounds) {
          fanOut.atLeast = bounds.min;
          if (bounds.max !== undefined) fanOut.atMost = bounds.max;
        }
      }
      count = fanOut.items;
    }
    // What one unit asks of the service, as the kind sees it; times the fan-out when known.
    const planned =
      kind?.plan(known, {
        ...(options.catalogs ? { catalogs: options.catalogs } : {}),
      }) ?? {};
    for (const [name, label] of Object.entries(kind?.requestLabels ?? {})) {
      requestLabels[name] = label;
      if (!Object.hasOwn(requests, name)) requests[name] = 0;
    }
    for (const [name, perUnit] of Object.entries(planned.requests ?? {})) {
      const total = Object.hasOwn(requests, name) ? requests[name] : 0;
      requests[name] =
        total === undefined || count === undefined ? undefined : total + perUnit * count;
    }
    for (const problem of planned.problems ?? [])
      problems.push(
        typeof problem === "string"
          ? { step: step.id, message: problem }
          : { step: step.id, ...problem },
      );
    if (planned.model && (planned.model.seconds || planned.model.sizes)) {
      const entry = videoModels.get(planned.model.id) ?? {
        model: planned.model.id,
        ...(planned.model.seconds ? { seconds: planned.model.seconds } : {}),
        ...(planned.model.sizes ? { sizes: planned.model.sizes } : {}),
        steps: [],
      };
      entry.steps.push(step.id);
      videoModels.set(planned.model.id, entry);
    }
    const model = typeof known.model === "string" ? known.model : undefined;
    const paid = Object.values(planned.requests ?? {}).some((n) => n > 0);
    let estimate: StepEstimate | undefined;
    if (paid) {
      const done = options.journaled?.(step.id) ?? 0;
      const units = count === undefined ? undefined : Math.max(0, count - done);
      const atLeast =
        fanOut?.atLeast === undefined ? undefined : Math.max(0, fanOut.atLeast - done);
      const atMost = fanOut?.atMost === undefined ? undefined : Math.max(0, fanOut.atMost - done);
      estimate = {
        ...(planned.credits !== undefined ? { perUnit: planned.credits } : {}),
        ...(units !== undefined ? { units } : {}),
        ...(planned.credits !== undefined && units !== undefined
          ? { credits: planned.credits * units }
          : {}),
        ...(units === undefined && atLeast !== undefined ? { unitsAtLeast: atLeast } : {}),
        ...(units === undefined && atMost !== undefined ? { unitsAtMost: atMost } : {}),
      };
      if (estimate.credits !== undefined) runEstimate.credits += estimate.credits;
      else {
        // Only the least it will cost is certain.
        if (planned.credits !== undefined && atLeast !== undefined)
          runEstimate.credits += planned.credits * atLeast;
        if (planned.credits !== 0) runEstimate.complete = false;
      }
      runEstimate.steps[step.id] = estimate;
    }
    return {
      id: step.id,
      ...(step.name ? { name: step.name } : {}),
      kind: kindName,
      stage: stageOf.get(step.id) ?? 0,
      dependsOn: [...(graph.dependencies.get(step.id) ?? [])],
      ...(step.if !== undefined ? { condition: step.if } : {}),
      ...(fanOut ? { fanOut } : {}),
      request: { known, pending },
      ...(model ? { model } : {}),
      ...(estimate ? { estimate } : {}),
    };
  });
  // The most it can cost, when every paid step's price and largest size are known.
  if (!runEstimate.complete) {
    let most = 0;
    for (const step of Object.values(runEstimate.steps)) {
      const credits =
        step.credits ??
        (step.perUnit !== undefined && step.unitsAtMost !== undefined
          ? step.perUnit * step.unitsAtMost
          : undefined);
      if (credits === undefined) {
        most = Number.NaN;
        break;
      }
      most += credits;
    }
    if (Number.isFinite(most)) runEstimate.creditsAtMost = most;
  }
  return {
    name: spec.name,
    ...(spec.description ? { description: spec.description } : {}),
    ...(inputs ? { inputs } : {}),
    notes,
    problems,
    stages,
    steps,
    limits: {
      videoModels: [...videoModels.values()],
      ...(spec.max_credits !== undefined ? { maxCredits: spec.max_credits } : {}),
      requests,
      requestLabels,
      estimate: runEstimate,
    },
  };
}
