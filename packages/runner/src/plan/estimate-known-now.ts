import { isDeepStrictEqual } from "node:util";
import { type EstimateCache, requestCacheKey } from "../cache/request-cache-key.js";
import { servableEntry, servedOutputs } from "../cache/servable-entry.js";
import { cacheLocation } from "../cache/step-cache.js";
import { unitBody, unitContext, unitRequest } from "../executor/unit-request.js";
import { type ExpressionContext, evaluateValue } from "../expressions/index.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import { kindOf } from "../steps/registry.js";
import type { AnyStepKind, ModelCatalogs, PlannedUnit } from "../steps/step-kind.js";
import type { RunEstimate, StepEstimate } from "./plan-types.js";
import { creditCatalogs, partsByUnit } from "./price-units.js";

/** What {@link estimateKnownNow} prices with. */
export interface KnownNowOptions {
  kinds: ReadonlyMap<string, AnyStepKind>;
  catalogs?: ModelCatalogs | undefined;
  /** The run so far: its inputs, env and the outputs of the steps that ran. */
  context: ExpressionContext;
  /** The steps still to run, to be priced (in any order: they are taken in the pipeline's). */
  steps: ReadonlySet<string>;
  /** The plan's estimate of those steps: used for a step whose units cannot be worked out now. */
  planned?: RunEstimate | undefined;
  /** The cache the run uses: a unit whose whole request is known and held there costs 0. */
  cache?: (EstimateCache & { pipelineDir: string }) | undefined;
}

type Bounds = { atLeast: number; atMost: number };

/**
 * What the steps still to run will cost, as known now: each unit's request evaluated over the
 * outputs made so far, and priced by its kind. Outputs not made yet are bounded by what their
 * kinds expect of them (`PlannedUnit.expected`: a narration's duration from its text), so a
 * step that reads them (a clip at least as long as its narration) is priced twice, with every
 * bound at its least and at its most: the estimate is then a range (`credits` to
 * `creditsAtMost`). A unit whose request is wholly known and held by the cache costs 0.
 * @example const next = await estimateKnownNow(spec, { kinds, catalogs, context, steps: new Set(["narration", "clips"]) }); // { credits: 49, creditsAtMost: 93, complete: false, … }
 */
export async function estimateKnownNow(
  spec: PipelineSpec,
  options: KnownNowOptions,
): Promise<RunEstimate> {
  const least: ExpressionContext = { ...options.context, steps: { ...options.context.steps } };
  const most: ExpressionContext = { ...options.context, steps: { ...options.context.steps } };
  const estimate: RunEstimate = { credits: 0, complete: true, steps: {} };
  // Prices stated at a rate in credits; those in a unit without one stay in it (kept apart).
  const catalogs = creditCatalogs(options.catalogs, "keep");
  let ranged = false;
  let mostCredits = 0;
  for (const step of spec.steps) {
    if (!options.steps.has(step.id)) continue;
    const kind = kindOf(step as Record<string, unknown>, options.kinds);
    if (!kind) continue;
    const body = unitBody(step as Record<string, unknown>, kind.kind, spec.defaults);
    const fanOut = step.for_each !== undefined;
    const items = fanOut ? itemsOf(step.for_each, least) : [undefined];
    const outputsLeast: Record<string, unknown>[] = [];
    const outputsMost: Record<string, unknown>[] = [];
    const priced: (Bounds | undefined)[] = [];
    let paid = false;
    let cached = 0;
    for (const [index, item] of (items ?? []).entries()) {
      const place = fanOut ? { item, index } : undefined;
      const low = requestIn(body, unitContext(least, place));
      const high = requestIn(body, unitContext(most, place));
      const plannedLow = low ? creditsOf(kind, low, options, catalogs) : undefined;
      const plannedHigh = high ? creditsOf(kind, high, options, catalogs) : undefined;
      const isPaid = [plannedLow, plannedHigh].some((planned) =>
        Object.values(planned?.requests ?? {}).some((count) => count > 0),
      );
      paid ||= isPaid;
      outputsLeast.push(expectedOutputs(plannedLow, "atLeast"));
      outputsMost.push(expectedOutputs(plannedHigh, "atMost"));
      if (!isPaid) {
        priced.push({ atLeast: 0, atMost: 0 });
        continue;
      }
      const served =
        low && high && isDeepStrictEqual(low, high)
          ? await fromCache(kind, low, step, options)
          : undefined;
      if (served) {
        // Its outputs are the cached ones: what reads them is known, not bounded.
        outputsLeast[outputsLeast.length - 1] = served;
        outputsMost[outputsMost.length - 1] = served;
        cached += 1;
        priced.push({ atLeast: 0, atMost: 0 });
        continue;
      }
      priced.push(unitBounds(plannedLow, plannedHigh));
    }
    const status = "success";
    least.steps[step.id] = { outputs: fanOut ? outputsLeast : (outputsLeast[0] ?? {}), status };
    most.steps[step.id] = { outputs: fanOut ? outputsMost : (outputsMost[0] ?? {}), status };
    if (!paid && items !== undefined) continue;
    const planned = options.planned?.steps[step.id];
    if (items === undefined || priced.some((bounds) => bounds === undefined)) {
      // Its units (or one's price) are known only at run time: the plan's word for it.
      if (!planned && items !== undefined) continue;
      estimate.steps[step.id] = {
        ...(planned ?? {}),
        ...(items !== undefined ? { units: items.length - cached } : {}),
      };
      // A step priced wholly in another unit leaves only that unit's total incomplete.
      if (planned?.unit === undefined) {
        estimate.complete = false;
        mostCredits = Number.NaN;
      }
      continue;
    }
    const known = priced as Bounds[];
    const credits = known.reduce((sum, bounds) => sum + bounds.atLeast, 0);
    const atMost = known.reduce((sum, bounds) => sum + bounds.atMost, 0);
    const uncached = known.length - cached;
    const prices = new Set(known.filter((_, i) => !isZero(known[i])).map((b) => b.atLeast));
    const same = known.every((bounds) => bounds.atLeast === bounds.atMost) && prices.size <= 1;
    const stepEstimate: StepEstimate = {
      ...(same && prices.size === 1 ? { perUnit: [...prices][0] as number } : {}),
      units: uncached,
      ...(cached > 0 ? { cached } : {}),
      credits,
      ...(atMost !== credits ? { creditsAtMost: atMost } : {}),
    };
    estimate.steps[step.id] = stepEstimate;
    estimate.credits += credits;
    mostCredits += atMost;
    if (atMost !== credits) ranged = true;
  }
  if (ranged && Number.isFinite(mostCredits)) {
    estimate.complete = false;
    estimate.creditsAtMost = mostCredits;
  }
  return estimate;
}

/**
 * A unit as its kind plans it, priced in credits only: its parts in a unit with no rate to
 * credits are left out (a step wholly in one costs 0 credits), so a voice in usd is never
 * added to a transcription's credits.
 */
function creditsOf(
  kind: AnyStepKind,
  request: Record<string, unknown>,
  options: KnownNowOptions,
  catalogs: ModelCatalogs | undefined,
): PlannedUnit {
  const planned = kind.plan(request, catalogs ? { catalogs } : {});
  const model = typeof request.model === "string" ? request.model : undefined;
  const split = partsByUnit(options.catalogs, planned, model);
  if (Object.keys(split.otherUnits).length === 0) return planned;
  const { credits: _credits, creditsRange: _range, parts: _parts, ...rest } = planned;
  // Wholly in such a unit: nothing in credits (its amount is the run's `otherUnits`).
  const credits = split.inCredits ? split.credits : 0;
  return {
    ...rest,
    ...(credits !== undefined ? { credits } : {}),
    ...(split.creditsRange ? { creditsRange: split.creditsRange } : {}),
  };
}

function isZero(bounds: Bounds | undefined): boolean {
  return bounds !== undefined && bounds.atLeast === 0 && bounds.atMost === 0;
}

/** A fan-out's items as known now, or undefined when its list is not made yet. */
function itemsOf(list: unknown, context: ExpressionContext): unknown[] | undefined {
  try {
    const items = evaluateValue(list, context);
    return Array.isArray(items) ? items : undefined;
  } catch {
    return undefined;
  }
}

/** A unit's request evaluated in a context, or undefined when it cannot be yet. */
function requestIn(
  body: Record<string, unknown>,
  context: ExpressionContext,
): Record<string, unknown> | undefined {
  try {
    return unitRequest(body, context);
  } catch {
    return undefined;
  }
}

/** The outputs a unit is expected to give, each bounded field at one of its bounds. */
function expectedOutputs(
  planned: PlannedUnit | undefined,
  end: keyof Bounds,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(planned?.expected ?? {}).map(([field, bounds]) => [field, bounds[end]]),
  );
}

/** One unit's least and most price, from its request at its inputs' least and most. */
function unitBounds(
  low: PlannedUnit | undefined,
  high: PlannedUnit | undefined,
): Bounds | undefined {
  const ends = [low, high].map(
    (planned) =>
      planned?.creditsRange ??
      (planned?.credits === undefined
        ? undefined
        : { atLeast: planned.credits, atMost: planned.credits }),
  );
  if (ends.some((end) => end === undefined)) return undefined;
  const [a, b] = ends as Bounds[];
  return {
    atLeast: Math.min(a?.atLeast ?? 0, b?.atLeast ?? 0),
    atMost: Math.max(a?.atMost ?? 0, b?.atMost ?? 0),
  };
}

/** The outputs the cache holds for this wholly known request ({@link servedOutputs}), if any. */
async function fromCache(
  kind: AnyStepKind,
  request: Record<string, unknown>,
  step: { cache?: unknown },
  options: KnownNowOptions,
): Promise<Record<string, unknown> | undefined> {
  const policy = kind.cache;
  if (!options.cache || !policy || step.cache === false) return undefined;
  const key = await requestCacheKey(
    kind.kind,
    policy,
    request,
    options.cache.pipelineDir,
    options.cache,
  ).catch(() => undefined);
  if (key === undefined) return undefined;
  const cache = cacheLocation(options.cache.location);
  const entry = await servableEntry(cache, key);
  if (!entry) return undefined;
  return servedOutputs(cache.dir, entry, policy, request);
}
