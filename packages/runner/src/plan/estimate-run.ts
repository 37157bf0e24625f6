import { dirname } from "node:path";
import { exactAmount } from "@reelsmith/core/catalog";
import type { CacheEntry } from "../cache/cache-entry.js";
import { type EstimateCache, requestCacheKey } from "../cache/request-cache-key.js";
import { servableEntry, servedOutputs } from "../cache/servable-entry.js";
import { cacheLocation } from "../cache/step-cache.js";
import { type RunState, SINGLE_ITEM } from "../journal/journal-state.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import { kindsByName } from "../steps/registry.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";
import { type KnownStepRequests, knownUnitRequests } from "./known-unit-requests.js";
import { settleCompleteness, settleUnitCount } from "./plan-estimate.js";
import { countRequests, planPipeline } from "./plan-pipeline.js";
import type { Plan, RunEstimate, StepEstimate } from "./plan-types.js";
import { settleUnitTotals } from "./price-units.js";

/** What a run's estimate is made from. */
export interface EstimateRunOptions {
  inputs: Record<string, unknown>;
  /** The other model catalogs with their prices, by provider profile section. */
  catalogs?: ModelCatalogs | undefined;
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[] | undefined;
  /** A resumed run's journal: the units it already has cost nothing more. */
  previous?: RunState | undefined;
  /**
   * The cache the run will use: units whose whole request is known now and whose result it
   * holds cost nothing. `service` is the cache key's service (as the run's units give it).
   */
  cache?: EstimateCache | undefined;
  /** The run's plan, when the caller made it already (with {@link planRun}). */
  plan?: Plan | undefined;
}

/** Units of a step a resumed run already has, by index. */
function succeededUnits(previous: RunState | undefined, step: string): Set<number> {
  return new Set(
    [...(previous?.steps.get(step)?.items.entries() ?? [])]
      .filter(([, item]) => item.status === "succeeded")
      .map(([index]) => index),
  );
}

/**
 * The plan of a run about to start: the pipeline's plan with its inputs and models, the units
 * a resumed run already has left out of its estimate.
 * @example planRun(pipeline, { inputs, catalogs, previous }).problems
 */
export function planRun(
  pipeline: LoadedPipeline,
  options: Pick<EstimateRunOptions, "inputs" | "catalogs" | "stepKinds" | "previous">,
): Plan {
  return planPipeline(pipeline, {
    inputs: options.inputs,
    ...(options.catalogs ? { catalogs: options.catalogs } : {}),
    ...(options.stepKinds ? { stepKinds: options.stepKinds } : {}),
    journaled: (step) => succeededUnits(options.previous, step).size,
  });
}

/**
 * What a run is expected to cost before anything is sent, as every executor works it out:
 * the plan's estimate (the models' prices × the units known now), with the units a resumed
 * run already has and those the cache holds counted as 0. A plan given is revised in place:
 * its estimate, and its `limits.requests` without the requests the cache will answer.
 * @example const estimate = await estimateRun(pipeline, { inputs, catalogs }); // { credits: 36, complete: true, steps: {…} }
 */
export async function estimateRun(
  pipeline: LoadedPipeline,
  options: EstimateRunOptions,
): Promise<RunEstimate> {
  const estimate = (options.plan ?? planRun(pipeline, options)).limits.estimate;
  if (!options.cache) return estimate;
  const kinds = kindsByName(options.stepKinds);
  const cache = cacheLocation(options.cache.location);
  const by = options.cache;
  const pipelineDir = pipeline.path === "<inline>" ? process.cwd() : dirname(pipeline.path);
  // The entry each unit of a step would be served, by step (undefined: made, and paid).
  const lookups = new Map<string, (CacheEntry | undefined)[]>();
  const lookUp = async (step: StepSpec, known: KnownStepRequests) => {
    const found = lookups.get(step.id);
    if (found) return found;
    const policy = kinds.get(known.kind)?.cache;
    if (!policy || step.cache === false) return undefined;
    const entries: (CacheEntry | undefined)[] = [];
    for (const spec of known.specs) {
      const key = await requestCacheKey(known.kind, policy, spec, pipelineDir, by).catch(
        () => undefined,
      );
      entries.push(key ? await servableEntry(cache, key) : undefined);
    }
    lookups.set(step.id, entries);
    return entries;
  };
  const requests = await knownUnitRequests(pipeline, {
    inputs: options.inputs,
    ...(options.stepKinds ? { stepKinds: options.stepKinds } : {}),
    // A step the cache answers wholly gives its outputs to the steps that read them.
    served: async (step, known) => {
      const entries = await lookUp(step, known);
      if (!entries?.every((entry): entry is CacheEntry => entry !== undefined)) return undefined;
      const policy = kinds.get(known.kind)?.cache ?? {};
      const outputs = entries.map((entry, index) =>
        servedOutputs(cache.dir, entry, policy, known.specs[index] ?? {}),
      );
      return step.for_each === undefined ? outputs[0] : outputs;
    },
  });
  const plannedSteps = new Map(options.plan?.steps.map((step) => [step.id, step]));
  // Priced steps, and (a plan's) steps that send paid requests though their price is unknown.
  const ids = new Set(Object.keys(estimate.steps));
  for (const planned of plannedSteps.values()) if (planned.requests) ids.add(planned.id);
  let settled = false;
  // Units each step still makes, where its requests are known now (those the cache answers out).
  const toMake = new Map<string, number>();
  for (const id of ids) {
    const step = estimate.steps[id];
    const planned = plannedSteps.get(id);
    const known = requests.get(id);
    const written = pipeline.spec.steps.find((entry) => entry.id === id);
    if (!known || !written || (!step?.perUnit && !planned?.requests)) continue;
    const entries = await lookUp(written, known);
    if (!entries) continue;
    const done = succeededUnits(options.previous, id);
    const fanOut = written.for_each !== undefined;
    let hits = 0;
    let units = 0;
    for (const [index, entry] of entries.entries()) {
      if (done.has(fanOut ? index : SINGLE_ITEM)) continue;
      units += 1;
      if (entry) hits += 1;
    }
    toMake.set(id, units - hits);
    // Its units known now (a list the cache's outputs gave): its estimate is exact.
    if (step && settleUnitCount(estimate, step, units, hits)) settled = true;
    if (hits > 0 && step?.perUnit) leaveOutCost(estimate, step, hits);
  }
  if (settled) settleCompleteness(estimate);
  if (options.plan) recountRequests(options.plan, options.previous, toMake);
  return estimate;
}

/**
 * Takes the cost of a step's units the cache will answer out of its estimate and the run's:
 * its credits, or the total of the unit it is priced in wholly (`usd` without a rate).
 */
function leaveOutCost(estimate: RunEstimate, step: StepEstimate, hits: number): void {
  step.cached = hits;
  if (step.units !== undefined) step.units = Math.max(0, step.units - hits);
  // Its parts in other units (a voice in usd beside its timing's credits) are not paid either.
  if (step.otherUnits) {
    for (const part of Object.values(step.otherUnits)) {
      if (part.perUnit === undefined || part.amount === undefined) continue;
      part.amount = exactAmount(Math.max(0, part.amount - part.perUnit * hits));
    }
    settleUnitTotals(estimate);
  }
  if (step.credits === undefined || step.perUnit === undefined) return;
  const saved = Math.min(step.credits, step.perUnit * hits);
  step.credits = exactAmount(step.credits - saved);
  const total = step.unit === undefined ? undefined : estimate.otherUnits?.[step.unit];
  if (step.unit === undefined) estimate.credits -= saved;
  else if (total) total.amount = exactAmount(total.amount - saved);
}

/**
 * The plan's counts of requests worked out again, step by step: what one unit sends times the
 * units it still makes, where they are known now (`toMake`: the cache's left out), else as
 * planned (its fan-out's length when known, less what a resumed run has). A step whose number
 * is still unknown leaves its totals unknown.
 */
function recountRequests(
  plan: Plan,
  previous: RunState | undefined,
  toMake: ReadonlyMap<string, number>,
): void {
  const { requests } = plan.limits;
  for (const name of Object.keys(requests)) requests[name] = 0;
  for (const step of plan.steps) {
    if (!step.requests) continue;
    const made = toMake.get(step.id);
    if (made !== undefined) countRequests(requests, step.requests, made, 0);
    else {
      const count = step.fanOut ? step.fanOut.items : 1;
      countRequests(requests, step.requests, count, succeededUnits(previous, step.id).size);
    }
  }
}
