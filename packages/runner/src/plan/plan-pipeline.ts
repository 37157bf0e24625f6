import { unitBody } from "../executor/unit-request.js";
import { defineKey } from "../expressions/convert.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { resolveInputs } from "../pipeline/resolve-inputs.js";
import { kindOf, kindsByName } from "../steps/registry.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";
import { buildGraph } from "./build-graph.js";
import { creditsAtMost, stepEstimate } from "./plan-estimate.js";
import { plannedFanOut } from "./plan-fan-out.js";
import { planStages } from "./plan-stages.js";
import type { Plan, PlannedStep, RunEstimate } from "./plan-types.js";
import { addUnitPart, creditCatalogs, moveToUnit, partsByUnit } from "./price-units.js";
import { staticValue } from "./static-value.js";

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
  // Prices stated in another unit at a rate count in credits; those without a rate keep theirs.
  const catalogs = creditCatalogs(options.catalogs, "keep");
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
  const { stageOf, stages } = planStages(spec, graph);

  const kinds = kindsByName(options.stepKinds);
  const models = new Map<string, ModelLimits>();
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
    const { fanOut, count } = plannedFanOut(step, spec, kinds, context);
    // What one unit asks of the service, as the kind sees it; times the fan-out when known.
    const planned =
      kind?.plan(known, {
        ...(catalogs ? { catalogs } : {}),
      }) ?? {};
    for (const [name, label] of Object.entries(kind?.requestLabels ?? {})) {
      requestLabels[name] = label;
      if (!Object.hasOwn(requests, name)) requests[name] = 0;
    }
    const done = options.journaled?.(step.id) ?? 0;
    const unitRequests = countRequests(requests, planned.requests, count, done);
    for (const problem of planned.problems ?? [])
      problems.push(
        typeof problem === "string"
          ? { step: step.id, message: problem }
          : { step: step.id, ...problem },
      );
    if (planned.model) noteModelLimits(models, planned.model, step.id);
    const model = typeof known.model === "string" ? known.model : undefined;
    const paid = Object.values(planned.requests ?? {}).some((n) => n > 0);
    const creditsBefore = runEstimate.credits;
    const completeBefore = runEstimate.complete;
    // Each part in its own unit: a model priced in another unit with no rate to credits is
    // totalled in its unit; a step wholly in one such unit counts there, not in credits.
    const split = paid ? partsByUnit(options.catalogs, planned, model) : undefined;
    const inUnits = Object.entries(split?.otherUnits ?? {});
    const whole = split && !split.inCredits && inUnits.length === 1 ? inUnits[0]?.[1] : undefined;
    const estimate = split
      ? stepEstimate(runEstimate, step.id, {
          perUnit: whole ? whole.amount : split.credits,
          count,
          fanOut,
          done,
        })
      : undefined;
    if (estimate && whole) {
      moveToUnit(runEstimate, estimate, whole.models, creditsBefore);
      // Its unknown size leaves its unit's total incomplete, not the credits.
      runEstimate.complete = completeBefore;
    } else if (estimate)
      for (const [unit, part] of inUnits)
        addUnitPart(runEstimate, estimate, unit, part, estimate.units);
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
      ...(paid ? { requests: unitRequests } : {}),
      ...(estimate ? { estimate } : {}),
    };
  });
  // The most it can cost, when every paid step's price and largest size are known.
  if (!runEstimate.complete) {
    const most = creditsAtMost(runEstimate);
    if (most !== undefined && Number.isFinite(most)) runEstimate.creditsAtMost = most;
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
      models: [...models.values()],
      ...(spec.max_credits !== undefined ? { maxCredits: spec.max_credits } : {}),
      requests,
      requestLabels,
      estimate: runEstimate,
    },
  };
}

/**
 * Adds a step's requests to the plan's counts, for its units still to run (a resumed run's
 * made ones send nothing more; a count unknown now leaves the total unknown), and returns
 * what one unit sends.
 * @example countRequests(requests, { videoJobs: 1 }, 3, 1) // requests.videoJobs += 2; { videoJobs: 1 }
 */
export function countRequests(
  requests: Record<string, number | undefined>,
  perUnit: Readonly<Record<string, number>> | undefined,
  count: number | undefined,
  done: number,
): Record<string, number> {
  const toRun = count === undefined ? undefined : Math.max(0, count - done);
  const unit: Record<string, number> = {};
  for (const [name, sent] of Object.entries(perUnit ?? {})) {
    const total = Object.hasOwn(requests, name) ? requests[name] : 0;
    requests[name] = total === undefined || toRun === undefined ? undefined : total + sent * toRun;
    if (sent > 0) unit[name] = sent;
  }
  return unit;
}

/** A model's limits as the plan shows them, with the steps that use it. */
interface ModelLimits {
  model: string;
  seconds?: string;
  sizes?: string;
  steps: string[];
}

/** Records the limits of the model a step uses (once per model; steps added to it). */
function noteModelLimits(
  models: Map<string, ModelLimits>,
  model: { id: string; seconds?: string; sizes?: string },
  stepId: string,
): void {
  if (!model.seconds && !model.sizes) return;
  const entry = models.get(model.id) ?? {
    model: model.id,
    ...(model.seconds ? { seconds: model.seconds } : {}),
    ...(model.sizes ? { sizes: model.sizes } : {}),
    steps: [],
  };
  entry.steps.push(stepId);
  models.set(model.id, entry);
}
