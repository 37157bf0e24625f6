import type { JsonSchema } from "./chat-types.js";
import { stringFor } from "./fill-string.js";
import { storyOf } from "./story-text.js";
import {
  type FoundNumber,
  identifierWords,
  numbersIn,
  splitSentences,
  stem,
  wordsOf,
} from "./text-analysis.js";

/** What a schema is filled from. */
export interface FillSource {
  /** The text this part of the instance is about (a group of sentences inside an array item). */
  focus: string;
  /** The whole user text (numbers for counts are searched here too). */
  whole: string;
  /** Name of the property being filled. */
  key: string;
  /** Description of the property being filled. */
  description: string;
}

const maxDepth = 8;

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(schema: unknown, root: JsonSchema, depth = 0): JsonSchema {
  if (!isObject(schema)) return {};
  let current = schema;
  if (typeof current.$ref === "string" && current.$ref.startsWith("#") && depth < 20) {
    const target = current.$ref
      .slice(1)
      .split("/")
      .filter(Boolean)
      .reduce<unknown>(
        (node, part) =>
          isObject(node) ? node[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined,
        root,
      );
    const { $ref: _ref, ...rest } = current;
    current = { ...resolve(target, root, depth + 1), ...rest };
  }
  if (Array.isArray(current.allOf)) {
    const { allOf, ...rest } = current;
    current = allOf.reduce<JsonSchema>(
      (merged, part) => mergeSchemas(merged, resolve(part, root, depth + 1)),
      rest,
    );
  }
  const options = (current.anyOf ?? current.oneOf) as unknown[] | undefined;
  if (Array.isArray(options) && options.length > 0) {
    const chosen =
      options
        .map((option) => resolve(option, root, depth + 1))
        .find((option) => option.type !== "null") ?? {};
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = current;
    current = mergeSchemas(rest, chosen);
  }
  return current;
}

function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  const merged: JsonSchema = { ...a, ...b };
  if (isObject(a.properties) || isObject(b.properties))
    merged.properties = { ...(a.properties as object), ...(b.properties as object) };
  if (Array.isArray(a.required) || Array.isArray(b.required)) {
    merged.required = [
      ...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])]),
    ];
  }
  return merged;
}

function typeOf(schema: JsonSchema): string {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type))
    return (type.find((entry) => entry !== "null") as string | undefined) ?? "null";
  if (isObject(schema.properties)) return "object";
  if (schema.items !== undefined) return "array";
  return "string";
}

/**
 * Make an instance of `schema` from text: strings from its sentences, counts from the numbers it
 * mentions (within the schema's bounds), enums by the word the text uses. Handles $ref, allOf,
 * anyOf/oneOf, enum, const, nested objects and arrays, string formats and length bounds.
 *
 * @example
 * fillSchema({ type: "object", required: ["scenes"], properties: { scenes: { type: "array", items: { type: "string" } } } },
 *   "Split into 2 scenes: A fox runs. It jumps.");
 * // { scenes: ["A fox runs.", "It jumps."] }
 */
export function fillSchema(schema: JsonSchema, text: string): unknown {
  return fill(schema, schema, { focus: text, whole: text, key: "", description: "" }, 0);
}

function fill(raw: unknown, root: JsonSchema, source: FillSource, depth: number): unknown {
  const schema = resolve(raw, root);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pickEnum(schema.enum, source);
  const description =
    typeof schema.description === "string" ? schema.description : source.description;
  const here = { ...source, description };
  switch (typeOf(schema)) {
    case "object":
      return fillObject(schema, root, here, depth);
    case "array":
      return fillArray(schema, root, here, depth);
    case "integer":
    case "number":
      return fillNumber(schema, here, typeOf(schema) === "integer");
    case "boolean":
      return wordsOf(source.whole).some((word) =>
        identifierWords(source.key).map(stem).includes(stem(word)),
      );
    case "null":
      return null;
    default:
      return stringFor(schema, here);
  }
}

function fillObject(
  schema: JsonSchema,
  root: JsonSchema,
  source: FillSource,
  depth: number,
): Record<string, unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const result: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (depth >= maxDepth && !required.has(key)) continue;
    result[key] = fill(property, root, { ...source, key, description: "" }, depth + 1);
  }
  for (const key of required) {
    if (!(key in result))
      result[key] = fill({}, root, { ...source, key, description: "" }, depth + 1);
  }
  return result;
}

/** The item count: a number in the text near the property's name, within the schema's bounds. */
export function chooseCount(schema: JsonSchema, source: FillSource, units: number): number {
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const max = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
  const fits = (found: FoundNumber) =>
    Number.isInteger(found.value) &&
    found.value >= Math.max(min, 1) &&
    found.value <= Math.min(max, MAX_ITEMS);
  const names = [...identifierWords(source.key), ...identifierWords(source.description)].map(stem);
  const numbers = numbersIn(
    source.focus === source.whole ? source.whole : `${source.focus} ${source.whole}`,
  );
  const named = numbers.find((found) => fits(found) && names.includes(stem(found.next)));
  const any =
    named ??
    (source.key
      ? numbers.find((found) => fits(found) && /^\d/.test(String(found.value)))
      : undefined);
  const wanted = any?.value ?? (units > 1 ? units : 3);
  return Math.max(min, Math.min(max, depthSafe(wanted)));
}

/** Most items an array is filled with (a storyboard of a few hundred scenes still fits). */
const MAX_ITEMS = 1000;

function depthSafe(count: number): number {
  return Math.min(count, MAX_ITEMS);
}

function fillArray(
  schema: JsonSchema,
  root: JsonSchema,
  source: FillSource,
  depth: number,
): unknown[] {
  const sentences = splitSentences(
    source.focus === source.whole ? storyOf(source.whole) : source.focus,
  );
  const count =
    depth >= maxDepth
      ? typeof schema.minItems === "number"
        ? schema.minItems
        : 0
      : chooseCount(schema, source, sentences.length);
  const groups = groupSentences(sentences.length > 0 ? sentences : [source.focus], count);
  const itemKey = source.key;
  const items = groups.map((group) =>
    fill(schema.items ?? {}, root, { ...source, focus: group, key: itemKey }, depth + 1),
  );
  if (schema.uniqueItems === true) return makeUnique(items);
  return items;
}

/** Cut sentences into `count` contiguous groups (reusing sentences when there are fewer). */
export function groupSentences(sentences: string[], count: number): string[] {
  if (count <= 0) return [];
  if (sentences.length <= count) {
    return Array.from({ length: count }, (_, index) => sentences[index % sentences.length] ?? "");
  }
  const groups: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = Math.floor((index * sentences.length) / count);
    const end = Math.floor(((index + 1) * sentences.length) / count);
    groups.push(sentences.slice(start, end).join(" "));
  }
  return groups;
}

function makeUnique(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.map((item, index) => {
    let candidate = item;
    if (seen.has(JSON.stringify(candidate))) {
      if (typeof item === "string") candidate = `${item} (${index + 1})`;
      else if (typeof item === "number") candidate = item + index;
    }
    seen.add(JSON.stringify(candidate));
    return candidate;
  });
}

function pickEnum(values: unknown[], source: FillSource): unknown {
  const text = ` ${wordsOf(`${source.focus} ${source.whole}`).join(" ")} `;
  const named = values.find(
    (value) =>
      typeof value === "string" && value !== "" && text.includes(` ${wordsOf(value).join(" ")} `),
  );
  return named ?? values[0];
}

function fillNumber(schema: JsonSchema, source: FillSource, integer: boolean): number {
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
