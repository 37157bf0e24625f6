import { conditionAsTemplate, splitTemplate, wholeExpression } from "../../expressions/template.js";
import { isObject } from "./check-model.js";

/** One `${{ }}` expression inside a string of the pipeline. */
export interface ExpressionAt {
  /** The string's path in the document. */
  path: (string | number)[];
  /** The expression's text (inside `${{ }}`). */
  expression: string;
  /** Which `${{` of the string it is (0-based). */
  index: number;
  /** True when the string is this expression and nothing else. */
  whole: boolean;
}

/**
 * A string as it is evaluated: a step's `if:` may leave out `${{ }}` (GitHub's rule), so a
 * bare condition reads as one whole expression. The one place that rule is written.
 * @example templateOf("inputs.go", ["steps", 0, "if"]) // "${{ inputs.go }}"
 */
export function templateOf(written: string, path: readonly (string | number)[]): string {
  return path.length === 3 && path[0] === "steps" && path[2] === "if"
    ? conditionAsTemplate(written)
    : written;
}

/** Every string inside a value, with its path (depth first, in document order). */
export function forEachString(
  value: unknown,
  path: (string | number)[],
  visit: (text: string, path: (string | number)[]) => void,
): void {
  if (typeof value === "string") visit(value, path);
  else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      forEachString(item, [...path, index], visit);
    });
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) forEachString(value[key], [...path, key], visit);
  }
}

/**
 * The expression walker every pass shares: each string of `value` that holds `${{ }}`, split
 * into its expressions (after the bare `if:` rule). A string that does not split (an
 * unterminated `${{`) is given to `onBadTemplate` (the syntax pass reports it) and skipped.
 * @example walkExpressions(step, ["steps", 0], (at) => console.log(at.expression));
 */
export function walkExpressions(
  value: unknown,
  path: (string | number)[],
  visit: (at: ExpressionAt) => void,
  onBadTemplate?: (error: unknown, text: string, path: (string | number)[]) => void,
): void {
  forEachString(value, path, (written, stringPath) => {
    const text = templateOf(written, stringPath);
    if (!text.includes("${{")) return;
    let segments: ReturnType<typeof splitTemplate>;
    try {
      segments = splitTemplate(text);
    } catch (error) {
      onBadTemplate?.(error, text, stringPath);
      return;
    }
    const expressions = segments.filter((segment) => segment.type === "expression");
    const whole = wholeExpression(text) !== undefined;
    expressions.forEach((segment, index) => {
      visit({ path: stringPath, expression: segment.expression, index, whole });
    });
  });
}
