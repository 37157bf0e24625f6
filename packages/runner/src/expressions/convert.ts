import { data } from "@actions/expressions";

/**
 * A read-only view of a JS object as an expression Dictionary; children are converted on
 * first access, so a large `steps` context costs nothing until an expression reads it.
 * Keys are matched case-insensitively, as in GitHub Actions.
 */
class ObjectView extends data.Dictionary {
  readonly #source: Record<string, unknown>;
  // Made on the first read: most views (a unit's context, an output no expression reads
  // further) are never read, or read once.
  #cache: Map<string, data.ExpressionData> | undefined;
  #lowerKeys: Map<string, string> | undefined;

  constructor(source: Record<string, unknown>) {
    super();
    this.#source = source;
  }

  #keyFor(key: string): string | undefined {
    if (Object.hasOwn(this.#source, key)) return key;
    if (!this.#lowerKeys) {
      this.#lowerKeys = new Map();
      for (const own of Object.keys(this.#source)) {
        const lower = own.toLowerCase();
        if (!this.#lowerKeys.has(lower)) this.#lowerKeys.set(lower, own);
      }
    }
    return this.#lowerKeys.get(key.toLowerCase());
  }

  override get(key: string): data.ExpressionData | undefined {
    const own = this.#keyFor(key);
    if (own === undefined) return undefined;
    this.#cache ??= new Map();
    let converted = this.#cache.get(own);
    if (!converted) {
      converted = toExpressionData(this.#source[own]);
      this.#cache.set(own, converted);
    }
    return converted;
  }

  override values(): data.ExpressionData[] {
    return this.pairs().map((pair) => pair.value);
  }

  /** The value this views, as plain data (what {@link fromExpressionData} gives). */
  plain(): Record<string, unknown> {
    return plainCopy(this.#source) as Record<string, unknown>;
  }

  override pairs(): { key: string; value: data.ExpressionData }[] {
    return Object.keys(this.#source).map((key) => ({
      key,
      value: this.get(key) ?? new data.Null(),
    }));
  }
}

/** A read-only view of a JS array as an expression Array, converted on access. */
class ArrayView extends data.Array {
  readonly #source: readonly unknown[];
  #converted: data.ExpressionData[] | undefined;

  constructor(source: readonly unknown[]) {
    super();
    this.#source = source;
  }

  override get(index: number): data.ExpressionData {
    return this.values()[index] ?? new data.Null();
  }

  override values(): data.ExpressionData[] {
    if (!this.#converted) this.#converted = this.#source.map((item) => toExpressionData(item));
    return this.#converted;
  }

  /** The value this views, as plain data (what {@link fromExpressionData} gives). */
  plain(): unknown[] {
    return plainCopy(this.#source) as unknown[];
  }
}

/**
 * Convert a JS value to the expression library's data type. Only own enumerable keys of
 * plain data are visible; functions, symbols and `undefined` become null.
 *
 * @example
 * ```ts
 * toExpressionData({ scenes: [1, 2] }).kind; // data.Kind.Dictionary
 * ```
 */
export function toExpressionData(value: unknown): data.ExpressionData {
  if (value === null || value === undefined) return new data.Null();
  switch (typeof value) {
    case "string":
      return new data.StringData(value);
    case "number":
      return new data.NumberData(value);
    case "bigint":
      return new data.NumberData(Number(value));
    case "boolean":
      return new data.BooleanData(value);
    case "object":
      if (value instanceof data.Dictionary || value instanceof data.Array) return value;
      if (Array.isArray(value)) return new ArrayView(value);
      if (value instanceof Date) return new data.StringData(value.toISOString());
      return new ObjectView(value as Record<string, unknown>);
    default:
      return new data.Null();
  }
}

/**
 * Convert expression data back to plain JS (objects are built without prototype lookups,
 * so a `__proto__` key stays an ordinary key).
 *
 * @example
 * ```ts
 * fromExpressionData(new data.NumberData(3)); // 3
 * ```
 */
export function fromExpressionData(value: data.ExpressionData): unknown {
  switch (value.kind) {
    case data.Kind.Null:
      return null;
    case data.Kind.Boolean:
    case data.Kind.Number:
    case data.Kind.String:
      return value.value;
    case data.Kind.Array:
      // A view of a value (a step's outputs, an input) is copied from it at once, not
      // converted item by item and back (a for_each over thousands of scenes).
      if (value instanceof ArrayView) return value.plain();
      return value.values().map((item) => fromExpressionData(item));
    default: {
      if (value instanceof ObjectView) return value.plain();
      const result: Record<string, unknown> = {};
      for (const pair of (value as data.Dictionary).pairs()) {
        defineKey(result, pair.key, fromExpressionData(pair.value));
      }
      return result;
    }
  }
}

/**
 * A copy of a value as an expression sees it, made directly: what converting it with
 * {@link toExpressionData} and back with {@link fromExpressionData} gives (own enumerable
 * keys of plain data; dates as ISO text; functions, symbols and `undefined` as null).
 */
function plainCopy(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return value;
    case "bigint":
      return Number(value);
    case "object": {
      if (value instanceof data.Dictionary || value instanceof data.Array)
        return fromExpressionData(value);
      if (Array.isArray(value)) return value.map(plainCopy);
      if (value instanceof Date) return value.toISOString();
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(value))
        defineKey(result, key, plainCopy((value as Record<string, unknown>)[key]));
      return result;
    }
    default:
      return null;
  }
}

/**
 * `{ ...first, ...second }`, each key an own data property (as {@link defineKey} sets it),
 * copied one by one: once optimized, Node 20's V8 gives the object a spread merge makes a
 * hidden class of its own, made in the old generation, on every call.
 * @example mergeFields({ model: "m", seconds: 4 }, { prompt: "a fox" }) // { model: "m", seconds: 4, prompt: "a fox" }
 */
export function mergeFields(
  first: Readonly<Record<string, unknown>> | undefined,
  second: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const source of [first, second]) {
    if (!source) continue;
    for (const key of Object.keys(source)) defineKey(merged, key, source[key]);
  }
  return merged;
}

/** Set `key` as an own data property, even for `__proto__` or `constructor`. */
export function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  // A plain store is the fast path; a key Object.prototype holds (`__proto__`'s setter, a
  // frozen prototype's read-only `toString`) would not land as an own property that way.
  if (!(key in Object.prototype)) {
    target[key] = value;
    return;
  }
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
