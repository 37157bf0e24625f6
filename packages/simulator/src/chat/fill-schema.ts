import { castOf } from "./cast-of.js";
import type { JsonSchema } from "./chat-types.js";
import { chooseCount } from "./choose-count.js";
import { composeBeats, leadsFor } from "./compose-beats.js";
import { fillLimitError, fillLimits, formatCount } from "./fill-limits.js";
import { fillNumber } from "./fill-number.js";
import type { FillSource } from "./fill-source.js";
import { stringFor } from "./fill-string.js";
import { storyOf } from "./story-text.js";
import { identifierWords, numbersIn, splitSentences, stem, wordsOf } from "./text-analysis.js";

export { groupSentences } from "./compose-beats.js";

/** Options of {@link fillSchema}. */
export interface FillOptions {
  /** Turns the order of the shots an array's items are seen through (the reply's seed). */
  seed?: number;
  /** The request's field a refusal names (`response_format`, `tools`, `messages`). */
  param?: string;
}

/** What one answer shares while it is filled: the root schema and what is spent so far. */
interface FillContext {
  root: JsonSchema;
  seed: number;
  param: string;
  values: number;
  characters: number;
}

/** Below this depth optional properties are left out and arrays get `minItems` items. */
const maxDepth = 8;

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(schema: unknown, context: FillContext, path: string, depth = 0): JsonSchema {
  if (!isObject(schema)) return {};
  const root = context.root;
  let current = schema;
  if (typeof current.$ref === "string" && current.$ref.startsWith("#")) {
    if (depth >= fillLimits.references) {
      throw fillLimitError({
        asked: `a $ref chain longer than ${fillLimits.references} steps`,
        at: path,
        limit: "references",
        param: context.param,
      });
    }
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
    current = { ...resolve(target, context, path, depth + 1), ...rest };
  }
  if (Array.isArray(current.allOf)) {
    const { allOf, ...rest } = current;
    current = allOf.reduce<JsonSchema>(
      (merged, part) => mergeSchemas(merged, resolve(part, context, path, depth + 1)),
      rest,
    );
  }
  const options = (current.anyOf ?? current.oneOf) as unknown[] | undefined;
  if (Array.isArray(options) && options.length > 0) {
    const chosen =
      options
        .map((option) => resolve(option, context, path, depth + 1))
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
 * anyOf/oneOf, enum, const, nested objects and arrays, string formats and length bounds. An
 * array with more items than the text has sentences gets items that still differ (see
 * {@link composeBeats}). Never answers less than asked: past one of {@link fillLimits} it throws
 * a 400 {@link HttpError} naming the limit.
 *
 * @example
 * fillSchema({ type: "object", required: ["scenes"], properties: { scenes: { type: "array", items: { type: "string" } } } },
 *   "Split into 2 scenes: A fox runs. It jumps.");
 * // { scenes: ["A fox runs.", "It jumps."] }
 */
export function fillSchema(schema: JsonSchema, text: string, options: FillOptions = {}): unknown {
  const context: FillContext = {
    root: schema,
    seed: options.seed ?? 0,
    param: options.param ?? "response_format",
    values: 0,
    characters: 0,
  };
  return fill(schema, { focus: text, whole: text, key: "", description: "" }, 0, "", context);
}

function fill(
  raw: unknown,
  source: FillSource,
  depth: number,
  path: string,
  context: FillContext,
): unknown {
  if (depth > fillLimits.depth) {
    throw fillLimitError({
      asked: `more than ${fillLimits.depth} levels of nesting`,
      at: path,
      limit: "depth",
      param: context.param,
    });
  }
  context.values += 1;
  if (context.values > fillLimits.values) {
    throw fillLimitError({
      asked: `more than ${formatCount(fillLimits.values)} values`,
      at: path,
      limit: "values",
      param: context.param,
    });
  }
  const schema = resolve(raw, context, path);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pickEnum(schema.enum, source);
  const description =
    typeof schema.description === "string" ? schema.description : source.description;
  const here = { ...source, description };
  switch (typeOf(schema)) {
    case "object":
      return fillObject(schema, here, depth, path, context);
    case "array":
      return fillArray(schema, here, depth, path, context);
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
      return fillString(schema, here, path, context);
  }
}

function fillString(
  schema: JsonSchema,
  source: FillSource,
  path: string,
  context: FillContext,
): string {
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  if (minLength > fillLimits.stringLength) {
    throw fillLimitError({
      asked: `a string of at least ${formatCount(minLength)} characters`,
      at: path,
      limit: "stringLength",
      param: context.param,
    });
  }
  const value = stringFor(schema, source);
  context.characters += value.length;
  if (context.characters > fillLimits.characters) {
    throw fillLimitError({
      asked: `more than ${formatCount(fillLimits.characters)} characters of text`,
      at: path,
      limit: "characters",
      param: context.param,
    });
  }
  return value;
}

function fillObject(
  schema: JsonSchema,
  source: FillSource,
  depth: number,
  path: string,
  context: FillContext,
): Record<string, unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const result: Record<string, unknown> = {};
  const at = (key: string) => (path ? `${path}.${key}` : key);
  for (const [key, property] of Object.entries(properties)) {
    if (depth >= maxDepth && !required.has(key)) continue;
    result[key] = fill(property, { ...source, key, description: "" }, depth + 1, at(key), context);
  }
  for (const key of required) {
    if (!(key in result))
      result[key] = fill({}, { ...source, key, description: "" }, depth + 1, at(key), context);
  }
  return result;
}

function fillArray(
  schema: JsonSchema,
  source: FillSource,
  depth: number,
  path: string,
  context: FillContext,
): unknown[] {
  const about = source.focus === source.whole ? storyOf(source.whole) : source.focus;
  const sentences = splitSentences(about);
  const where = { path, param: context.param };
  const count =
    depth >= maxDepth
      ? chooseCount({ ...schema, maxItems: schema.minItems ?? 0 }, source, 0, where)
      : chooseCount(schema, source, sentences.length, where);
  if (isCast(schema, source)) {
    // Characters as a writer names them: "the fox", with a short look, never the whole story.
    const cast = castOf(storyOf(source.whole) || source.focus);
    // As many as the text asks for by name ("two characters"), else as many as the story has:
    // a stray number ("one sentence the narrator says") does not cut the cast.
    const counted = chooseCount(schema, source, cast.length, where);
    const names = identifierWords(source.key).map(stem);
    const named = numbersIn(source.whole).some((found) => names.includes(stem(found.next)));
    const members = named
      ? counted
      : Math.max(
          typeof schema.minItems === "number" ? schema.minItems : 0,
          Math.min(
            typeof schema.maxItems === "number" ? schema.maxItems : cast.length,
            cast.length,
          ),
        );
    return Array.from({ length: members }, (_, index) => {
      const member = cast[index % cast.length] ?? { name: "the traveller", look: "a traveller" };
      const beat = { base: member.look, text: member.look, title: member.name };
      return fill(
        schema.items ?? {},
        { ...source, focus: member.look, beat },
        depth + 1,
        `${path}[${index}]`,
        context,
      );
    });
  }
  const beats = composeBeats({
    sentences: sentences.length > 0 ? sentences : [source.focus],
    count,
    kind: leadsFor(
      `${identifierWords(source.key).join(" ")} ${source.description} ${source.whole}`,
    ),
    seed: context.seed,
  });
  const items: unknown[] = [];
  for (const [index, beat] of beats.entries()) {
    const before = { values: context.values, characters: context.characters };
    items.push(
      fill(
        schema.items ?? {},
        { ...source, focus: beat.base, beat: count > 1 ? beat : undefined },
        depth + 1,
        `${path}[${index}]`,
        context,
      ),
    );
    // The first item tells what the others will cost: refuse now, not a million values later.
    if (index === 0) foresee(context, before, count, path);
  }
  if (schema.uniqueItems === true) return makeUnique(items);
  return items;
}

/** An array of objects that stands for a story's characters (`characters`, `cast`, `people`). */
function isCast(schema: JsonSchema, source: FillSource): boolean {
  const items = schema.items;
  if (!isObject(items) || (items.type !== "object" && !isObject(items.properties))) return false;
  return identifierWords(source.key).some((word) =>
    /^(?:characters?|cast|people|persons?|figures?|actors?|protagonists?|heroes?|roles?)$/.test(
      word,
    ),
  );
}

function foresee(
  context: FillContext,
  before: { values: number; characters: number },
  count: number,
  path: string,
): void {
  const values = before.values + (context.values - before.values) * count;
  if (values > fillLimits.values) {
    throw fillLimitError({
      asked: `about ${formatCount(values - before.values)} values (${formatCount(count)} items)`,
      at: path,
      limit: "values",
      param: context.param,
    });
  }
  const characters = before.characters + (context.characters - before.characters) * count;
  if (characters > fillLimits.characters) {
    throw fillLimitError({
      asked: `about ${formatCount(characters - before.characters)} characters of text (${formatCount(count)} items)`,
      at: path,
      limit: "characters",
      param: context.param,
    });
  }
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
