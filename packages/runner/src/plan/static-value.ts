import { evaluateValue } from "../expressions/evaluate.js";
import {
  collectReferencePaths,
  collectReferences,
  containsExpression,
} from "../expressions/references.js";

/** A value known before the run, or not. */
export type Known = { ok: true; value: unknown } | { ok: false };

/**
 * A value is known before the run when its expressions read only inputs and env.
 * @example staticValue("${{ inputs.scenes }}", context) // { ok: true, value: 4 }
 */
export function staticValue(
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
