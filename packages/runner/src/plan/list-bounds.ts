import { unitBody } from "../executor/unit-request.js";
import { collectReferencePaths } from "../expressions/references.js";
import { templateCloses, wholeExpression } from "../expressions/template.js";
import { kindOf } from "../steps/registry.js";
import { typeAt } from "../steps/static-types.js";
import type { AnyStepKind } from "../steps/step-kind.js";

/** How many items a list will hold, as far as is known before the run. */
export interface ListBounds {
  /** At least this many (0 when nothing says more). */
  min: number;
  /** At most this many, when something says so. */
  max?: number;
}

/** What {@link listBounds} needs of the pipeline. */
export interface BoundsSource {
  steps: readonly Record<string, unknown>[];
  defaults?: Record<string, unknown>;
}

/**
 * How many items a fan-out's list (`for_each: ${{ steps.X.outputs.… }}`) will hold, from the
 * type its step's kind gives that output: a chat step's JSON Schema `minItems`/`maxItems`,
 * numbers or expressions over inputs evaluated with `evaluate`. Undefined when nothing bounds it.
 * @example listBounds("${{ steps.storyboard.outputs.json.scenes }}", pipeline, kinds, evaluate) // { min: 4, max: 4 }
 */
export function listBounds(
  forEach: unknown,
  pipeline: BoundsSource,
  kinds: ReadonlyMap<string, AnyStepKind>,
  evaluate: (value: unknown) => unknown,
): ListBounds | undefined {
  if (
    typeof forEach !== "string" ||
    !templateCloses(forEach) ||
    wholeExpression(forEach) === undefined
  )
    return undefined;
  const references = collectReferencePaths(forEach);
  const reference = references[0];
  if (references.length !== 1 || reference?.context !== "steps") return undefined;
  const [stepId, outputs, ...path] = reference.path.map(String);
  if (outputs !== "outputs") return undefined;
  const step = pipeline.steps.find((entry) => entry.id === stepId);
  const kind = step ? kindOf(step, kinds) : undefined;
  if (!step || !kind) return undefined;
  const body = unitBody(step, kind.kind, pipeline.defaults);
  const list = typeAt(kind.outputs(body), path);
  if (list.type !== "array") return undefined;
  const count = (value: number | string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    let known: unknown = value;
    if (typeof value === "string") {
      try {
        known = evaluate(value);
      } catch {
        return undefined;
      }
    }
    const number = Number(known);
    return Number.isInteger(number) && number >= 0 ? number : undefined;
  };
  const min = count(list.minItems);
  const max = count(list.maxItems);
  if (min === undefined && max === undefined) return undefined;
  return { min: min ?? 0, ...(max === undefined ? {} : { max }) };
}
