import { wholeExpression } from "../expressions/template.js";
import type { PipelineSpec, StepSpec } from "../pipeline/pipeline-spec.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import { listBounds } from "./list-bounds.js";
import type { PlannedFanOut } from "./plan-types.js";
import { staticValue } from "./static-value.js";

/**
 * A step's fan-out as a plan sees it (none without `for_each`): its size when known now, else
 * the list it reads and the bounds its maker's kind says of it; `count` is how many units it
 * makes (1 without `for_each`, undefined when unknown).
 * @example plannedFanOut(step, spec, kinds, context) // { fanOut: { items: 4 }, count: 4 }
 */
export function plannedFanOut(
  step: StepSpec,
  spec: PipelineSpec,
  kinds: ReadonlyMap<string, AnyStepKind>,
  context: Parameters<typeof staticValue>[1],
): { fanOut: PlannedFanOut | undefined; count: number | undefined } {
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
      const bounds = listBounds(step.for_each, spec, kinds, (value) => {
        const known = staticValue(value, context);
        if (!known.ok) throw new Error("unknown");
        return known.value;
      });
      if (bounds && bounds.max === bounds.min) fanOut.items = bounds.min;
      else if (bounds) {
        fanOut.atLeast = bounds.min;
        if (bounds.max !== undefined) fanOut.atMost = bounds.max;
      }
    }
    count = fanOut.items;
  }
  return { fanOut, count };
}
