import type { JsonSchema } from "./chat-types.js";
import { fillLimitError, fillLimits, formatCount } from "./fill-limits.js";
import type { FillSource } from "./fill-source.js";
import { type FoundNumber, identifierWords, numbersIn, stem } from "./text-analysis.js";

/**
 * The item count: a number in the text near the property's name, within the schema's bounds.
 * Throws a 400 when the schema's `minItems`, or a count the text ties to the property ("200000
 * scenes"), is over {@link fillLimits}`.items`.
 *
 * @example
 * chooseCount({ type: "array", maxItems: 10 }, { focus: "", whole: "Make 4 scenes: …", key: "scenes", description: "" }, 2); // 4
 */
export function chooseCount(
  schema: JsonSchema,
  source: FillSource,
  units: number,
  where: { path: string; param: string } = { path: source.key, param: "response_format" },
): number {
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const max = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
  const refuse = (asked: string) =>
    fillLimitError({ asked, at: where.path, limit: "items", param: where.param });
  if (min > fillLimits.items) throw refuse(`at least ${formatCount(min)} items (minItems)`);
  const fits = (found: FoundNumber) =>
    Number.isInteger(found.value) && found.value >= Math.max(min, 1) && found.value <= max;
  const names = [...identifierWords(source.key), ...identifierWords(source.description)].map(stem);
  const numbers = numbersIn(
    source.focus === source.whole ? source.whole : `${source.focus} ${source.whole}`,
  );
  const named = numbers.find((found) => fits(found) && names.includes(stem(found.next)));
  if (named && named.value > fillLimits.items)
    throw refuse(`${formatCount(named.value)} ${named.next}`);
  const any =
    named ??
    (source.key
      ? numbers.find(
          (found) =>
            fits(found) && found.value <= fillLimits.items && /^\d/.test(String(found.value)),
        )
      : undefined);
  const wanted = any?.value ?? (units > 1 ? units : 3);
  return Math.max(min, Math.min(max, fillLimits.items, wanted));
}
