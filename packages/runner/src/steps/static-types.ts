/**
 * The types validation can know before a run: what an input, a step output or an expression
 * gives. `unknown` means "not known statically" and is always allowed.
 *
 * @example
 * ```ts
 * const scenes = typeFromSchema({ type: "array", items: { type: "object", properties: { d: { type: "string" } } } });
 * describeType(scenes); // "a list"
 * ```
 */
export type StaticType =
  | { type: "unknown" }
  | { type: "string" | "number" | "boolean" | "null" }
  | {
      type: "array";
      items: StaticType;
      /**
       * How many items it holds at least and at most, as its schema says (`minItems`,
       * `maxItems`): a number, or an expression over inputs (`${{ inputs.scenes }}`) that the
       * planner evaluates. Fan-outs over it are estimated from them.
       */
      minItems?: number | string;
      maxItems?: number | string;
    }
  | {
      type: "object";
      properties: Readonly<Record<string, StaticType>>;
      /** True when no key beyond `properties` can be present (a literal schema that lists them). */
      closed: boolean;
    };

export const UNKNOWN: StaticType = Object.freeze({ type: "unknown" });
export const STRING: StaticType = Object.freeze({ type: "string" });
export const NUMBER: StaticType = Object.freeze({ type: "number" });
export const BOOLEAN: StaticType = Object.freeze({ type: "boolean" });

/** A list of `items`. */
export const arrayOf = (items: StaticType): StaticType => ({ type: "array", items });

/** An object with these properties; `closed` when no others exist. */
export const objectOf = (properties: Record<string, StaticType>, closed = false): StaticType => ({
  type: "object",
  properties,
  closed,
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function typeOfValue(value: unknown): StaticType {
  if (typeof value === "string") return STRING;
  if (typeof value === "number") return NUMBER;
  if (typeof value === "boolean") return BOOLEAN;
  if (value === null) return { type: "null" };
  if (Array.isArray(value)) return arrayOf(UNKNOWN);
  return objectOf({});
}

/**
 * The type of the values a JSON Schema accepts, as far as it is plain: `type`, `properties`
 * (closed unless `additionalProperties` or `patternProperties` allow more), `items`, `enum`
 * and `const`. Composition (`$ref`, `anyOf`, `oneOf`, `allOf`, `not`, `if`) and several types
 * give `unknown`.
 */
export function typeFromSchema(schema: unknown, depth = 0): StaticType {
  if (!isRecord(schema) || depth > 32) return UNKNOWN;
  for (const key of ["$ref", "anyOf", "oneOf", "allOf", "not", "if", "$dynamicRef"]) {
    if (Object.hasOwn(schema, key)) return UNKNOWN;
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.length === 1 ? type[0] : undefined;
  if (type === undefined) {
    const values = Object.hasOwn(schema, "const")
      ? [schema.const]
      : Array.isArray(schema.enum)
        ? schema.enum
        : undefined;
    if (values && values.length > 0) {
      const kinds = new Set(values.map((value) => typeOfValue(value).type));
      return kinds.size === 1 ? typeOfValue(values[0]) : UNKNOWN;
    }
    if (isRecord(schema.properties)) type = "object";
    else if (schema.items !== undefined) type = "array";
  }
  switch (type) {
    case "string":
      return STRING;
    case "number":
    case "integer":
      return NUMBER;
    case "boolean":
      return BOOLEAN;
    case "null":
      return { type: "null" };
    case "array": {
      const list = arrayOf(
        isRecord(schema.items) ? typeFromSchema(schema.items, depth + 1) : UNKNOWN,
      );
      return {
        ...list,
        ...bound("minItems", schema.minItems),
        ...bound("maxItems", schema.maxItems),
      };
    }
    case "object": {
      const properties: Record<string, StaticType> = {};
      const listed = isRecord(schema.properties) ? schema.properties : undefined;
      for (const [name, property] of Object.entries(listed ?? {})) {
        Object.defineProperty(properties, name, {
          value: typeFromSchema(property, depth + 1),
          enumerable: true,
        });
      }
      const more =
        (schema.additionalProperties !== undefined && schema.additionalProperties !== false) ||
        schema.patternProperties !== undefined ||
        schema.unevaluatedProperties !== undefined;
      return objectOf(properties, listed !== undefined && !more);
    }
    default:
      return UNKNOWN;
  }
}

/** A `minItems`/`maxItems` bound as written: a whole number, or an expression's text. */
function bound(name: "minItems" | "maxItems", value: unknown): Record<string, number | string> {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return { [name]: value };
  if (typeof value === "string" && value.includes("${{")) return { [name]: value };
  return {};
}

/**
 * The type found at a path inside a type (`*` steps into a list's items), or unknown.
 * @example typeAt(objectOf({ json: objectOf({ scenes: arrayOf(STRING) }) }), ["json", "scenes"]).type // "array"
 */
export function typeAt(type: StaticType, path: readonly string[]): StaticType {
  let current = type;
  for (const segment of path) {
    if (segment === "*" && current.type === "array") current = current.items;
    else if (current.type === "object" && Object.hasOwn(current.properties, segment))
      current = current.properties[segment] ?? UNKNOWN;
    else return UNKNOWN;
  }
  return current;
}

/** The type of a declared pipeline input (`type:` string, number, integer, boolean, array, object, file). */
export function typeOfInput(declared: unknown): StaticType {
  switch (declared) {
    case "string":
    case "file":
      return STRING;
    case "number":
    case "integer":
      return NUMBER;
    case "boolean":
      return BOOLEAN;
    case "array":
      return arrayOf(UNKNOWN);
    case "object":
      return objectOf({});
    default:
      return UNKNOWN;
  }
}

/** "a string", "a list", … for messages. */
export function describeType(type: StaticType): string {
  switch (type.type) {
    case "array":
      return "a list";
    case "object":
      return "an object";
    case "null":
      return "null";
    case "unknown":
      return "a value of unknown type";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    default:
      return "a string";
  }
}
