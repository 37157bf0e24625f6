import { mergeFields } from "../expressions/convert.js";
import { type ExpressionContext, evaluateValue, type PreviousItem } from "../expressions/index.js";
import type { RunState } from "../journal/journal-state.js";
import type { PipelineSpec, StepSpec } from "../pipeline/pipeline-spec.js";
import { withTakeRequest } from "../takes/take-request.js";

/** How a step's status reads in expressions (`steps.<id>.status`). */
const STATUS_NAME: Readonly<Record<string, string>> = {
  succeeded: "success",
  failed: "failure",
  skipped: "skipped",
  cancelled: "cancelled",
  waiting: "waiting",
};

/**
 * A step's status as expressions read it (`steps.<id>.status`): `success`, `failure`,
 * `skipped`, `cancelled` or `waiting`; a step still running reads `success`.
 * @example statusName("failed") // "failure"
 */
export function statusName(status: string): string {
  return STATUS_NAME[status] ?? "success";
}

/**
 * A step's body for its kind, expressions not evaluated yet: the pipeline's defaults of the
 * kind, with the step's own fields over them.
 * @example unitBody({ id: "clips", video: { prompt: "a fox" } }, "video", { video: { seconds: 4 } }) // { seconds: 4, prompt: "a fox" }
 */
export function unitBody(
  step: Readonly<Record<string, unknown>>,
  kind: string,
  defaults?: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return mergeFields(
    defaults?.[kind] as Record<string, unknown> | undefined,
    step[kind] as Record<string, unknown> | undefined,
  );
}

/**
 * Where a unit stands in its fan-out: its item, its position and, in a `sequential` step, the
 * item before it (null for the first).
 */
export interface UnitPlace {
  item: unknown;
  index: number;
  previous?: PreviousItem | null;
}

/**
 * A unit's expression context: its step's (inputs, env, the steps before it, the run), with
 * its item, index and `previous` in a fan-out.
 * @example unitContext(context, { item: "a fox", index: 0, previous: null }).item // "a fox"
 */
export function unitContext(context: ExpressionContext, place?: UnitPlace): ExpressionContext {
  if (!place) return context;
  // Object.assign, not `{ ...context, item }`: a hidden class per unit otherwise (journal.ts).
  return Object.assign(
    {},
    context,
    place.previous === undefined
      ? { item: place.item, index: place.index }
      : { item: place.item, index: place.index, previous: place.previous },
  );
}

/**
 * What a unit asks for: its body evaluated in its context, with a take's changes over it (a
 * retaken unit's new prompt or params). Throws what the evaluation throws.
 * @example unitRequest({ prompt: "${{ item }}" }, unitContext(context, { item: "a fox", index: 0 })) // { prompt: "a fox" }
 */
export function unitRequest(
  body: Record<string, unknown>,
  context: ExpressionContext,
  changes?: Record<string, unknown>,
): Record<string, unknown> {
  return withTakeRequest(evaluateValue(body, context) as Record<string, unknown>, changes);
}

/**
 * What a unit of a journaled run asks for, evaluated again from its journal as the executor
 * did (the outputs and statuses of the steps before it, its item and, in a sequential step,
 * the item before), with a take's changes over it. Undefined when it cannot be evaluated any
 * more (its fan-out's list changed, an expression fails).
 * @example journaledUnitRequest({ spec, state, step, kind, index: 1, inputs, run }, { prompt: "a wolf" })?.prompt // "a wolf"
 */
export function journaledUnitRequest(
  unit: {
    spec: PipelineSpec;
    state: RunState;
    step: StepSpec;
    kind: { kind: string };
    index?: number;
    inputs: Record<string, unknown>;
    run: ExpressionContext["run"];
  },
  changes?: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const { spec, state, step, index } = unit;
  const steps: ExpressionContext["steps"] = {};
  for (const [id, journaled] of state.steps) {
    steps[id] = { outputs: journaled.outputs, status: statusName(journaled.status) };
  }
  const context: ExpressionContext = {
    inputs: unit.inputs,
    env: { ...(spec.env ?? {}) },
    steps,
    run: unit.run,
  };
  try {
    let place: UnitPlace | undefined;
    if (index !== undefined) {
      const items = evaluateValue(step.for_each, context);
      if (!Array.isArray(items) || index >= items.length) return undefined;
      const before = state.steps.get(step.id)?.items.get(index - 1);
      const previous =
        index === 0
          ? null
          : { item: items[index - 1], index: index - 1, outputs: before?.outputs ?? {} };
      place = { item: items[index], index, ...(step.sequential === true ? { previous } : {}) };
    }
    const body = unitBody(step, unit.kind.kind, spec.defaults);
    return unitRequest(body, unitContext(context, place), changes);
  } catch {
    return undefined;
  }
}
