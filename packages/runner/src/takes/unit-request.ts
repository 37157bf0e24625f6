import type { ExecutableSpec, ExecutableStep } from "../executor/executable-pipeline.js";
import { type ExpressionContext, evaluateValue } from "../expressions/index.js";
import type { RunState } from "../journal/journal-state.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import { withTakeRequest } from "./take-request.js";

const STATUS_NAME: Record<string, string> = {
  succeeded: "success",
  failed: "failure",
  skipped: "skipped",
};

/**
 * What a unit of a run asks for, evaluated again from its journal as the executor did (the
 * step's body over its defaults, with the outputs of the steps before it, its item and, in a
 * sequential step, the item before), with a take's changes over it. Undefined when it cannot
 * be evaluated any more.
 * @example unitRequest({ spec, state, step, kind, index: 1, inputs, run }, { prompt: "a wolf" })?.prompt // "a wolf"
 */
export function unitRequest(
  unit: {
    spec: ExecutableSpec;
    state: RunState;
    step: ExecutableStep;
    kind: AnyStepKind;
    index?: number;
    inputs: Record<string, unknown>;
    run: ExpressionContext["run"];
  },
  changes?: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const { spec, state, step, kind, index } = unit;
  const steps: ExpressionContext["steps"] = {};
  for (const [id, journaled] of state.steps) {
    steps[id] = { outputs: journaled.outputs, status: STATUS_NAME[journaled.status] ?? "success" };
  }
  const context: ExpressionContext = {
    inputs: unit.inputs,
    env: { ...(spec.env ?? {}) },
    steps,
    run: unit.run,
  };
  try {
    let itemContext = context;
    if (index !== undefined) {
      const items = evaluateValue(step.for_each, context);
      if (!Array.isArray(items) || index >= items.length) return undefined;
      const before = state.steps.get(step.id)?.items.get(index - 1);
      itemContext = {
        ...context,
        item: items[index],
        index,
        ...(step.sequential === true
          ? {
              previous:
                index === 0
                  ? null
                  : { item: items[index - 1], index: index - 1, outputs: before?.outputs ?? {} },
            }
          : {}),
      };
    }
    const body = {
      ...(spec.defaults?.[kind.kind] ?? {}),
      ...(step[kind.kind] as Record<string, unknown>),
    };
    return withTakeRequest(evaluateValue(body, itemContext) as Record<string, unknown>, changes);
  } catch {
    return undefined;
  }
}

/**
 * The prompt of a request, when it has one.
 * @example promptOf({ prompt: "a fox" }) // "a fox"
 */
export function promptOf(request: Record<string, unknown> | undefined): string | undefined {
  return typeof request?.prompt === "string" ? request.prompt : undefined;
}
