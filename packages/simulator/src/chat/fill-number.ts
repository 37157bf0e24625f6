import type { JsonSchema } from "./chat-types.js";
import type { FillSource } from "./fill-source.js";
import { identifierWords, numbersIn, stem } from "./text-analysis.js";

/**
 * A number for a property: one the text ties to its name ("12 seconds"), else one of the
 * focus that fits, else a default by the name (4 for a duration, 1 for an index); clamped to
 * `minimum`/`maximum` (exclusive ones too) and rounded to `multipleOf`.
 *
 * @example
 * fillNumber({ type: "integer", maximum: 9 }, { focus: "", whole: "12 seconds each", key: "seconds", description: "" }, true); // 9
 */
export function fillNumber(schema: JsonSchema, source: FillSource, integer: boolean): number {
  const min =
    typeof schema.minimum === "number"
      ? schema.minimum
      : typeof schema.exclusiveMinimum === "number"
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : Number.NEGATIVE_INFINITY;
  const max =
    typeof schema.maximum === "number"
      ? schema.maximum
      : typeof schema.exclusiveMaximum === "number"
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : Number.POSITIVE_INFINITY;
  const fits = (value: number) =>
    value >= min && value <= max && (!integer || Number.isInteger(value));
  const names = identifierWords(source.key).map(stem);
  const focusNumbers = numbersIn(source.focus).filter(
    (found) => /^\d/.test(String(found.value)) || found.value > 1,
  );
  const wholeNumbers = numbersIn(source.whole);
  // A number the text ties to this property ("12 seconds") is used even out of range, then clamped.
  const named = [...focusNumbers, ...wholeNumbers].find((found) =>
    names.includes(stem(found.next)),
  );
  const key = source.key.toLowerCase();
  const fallback = /second|duration|length|time/.test(key)
    ? 4
    : /year/.test(key)
      ? 2026
      : /count|number|total|quantity|num/.test(key)
        ? 3
        : /index|order|position|rank|step|scene|id/.test(key)
          ? 1
          : 1;
  let value = named?.value ?? focusNumbers.find((found) => fits(found.value))?.value ?? fallback;
  value = Math.min(max, Math.max(min, value));
  if (integer) value = Math.ceil(value);
  const step =
    typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (step) {
    value = Math.ceil(value / step) * step;
    if (value > max) value -= step;
  }
  return value;
}
