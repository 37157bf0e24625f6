import { templateCloses, wholeExpression } from "../../expressions/template.js";
import type { CheckContext } from "../step-kind.js";

/**
 * A field that must be a list: a list, or one whole expression giving one (a literal
 * string, or text around an expression, is refused).
 *
 * @example
 * ```ts
 * checkListValue({ texts: "Dawn" }, "texts", "captions takes a list of texts", context); // reported
 * ```
 */
export function checkListValue(
  body: Record<string, unknown>,
  field: string,
  what: string,
  context: CheckContext,
): void {
  const value = body[field];
  // A text whose `${{` is never closed is reported by the syntax check, at its `${{`.
  if (typeof value === "string" && templateCloses(value) && wholeExpression(value) === undefined) {
    context.report([field], `${what}, or one whole expression giving a list`, {
      code: "ffmpeg_not_a_list",
    });
  }
}
