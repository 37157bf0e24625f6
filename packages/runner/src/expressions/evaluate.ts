import { data, Evaluator } from "@actions/expressions";
import { defineKey, fromExpressionData, toExpressionData } from "./convert.js";
import { ExpressionError } from "./expression-error.js";
import { parseExpression, STATUS_FUNCTIONS } from "./parse-expression.js";
import {
  hasExpressionMarker,
  splitTemplate,
  type TemplateSegment,
  wholeExpression,
} from "./template.js";

/** What expressions can read while a pipeline runs. */
export interface ExpressionContext {
  inputs: Record<string, unknown>;
  /** The pipeline's `env:` as written (a value may be a number or a boolean). */
  env: Record<string, string | number | boolean>;
  steps: Record<string, { outputs: unknown; status?: string }>;
  /** The current element inside `for_each`. */
  item?: unknown;
  /** The current 0-based position inside `for_each`. */
  index?: number;
  /**
   * Inside a `sequential` fan-out: the item before this one, its position and what its unit
   * gave; null in the first item (so `${{ previous && previous.outputs.file }}` is null there).
   */
  previous?: PreviousItem | null;
  run: { id: string; dir: string; name: string };
  /**
   * Outcome so far, for the `if:` status functions `success()`, `failure()`,
   * `always()`, `cancelled()`. Defaults to "success".
   */
  status?: "success" | "failure" | "cancelled";
}

/** The item before the current one in a `sequential` fan-out. */
export interface PreviousItem {
  item: unknown;
  index: number;
  outputs: Record<string, unknown>;
}

type FunctionMap = ConstructorParameters<typeof Evaluator>[2];

type StatusFunction = {
  name: string;
  minArgs: number;
  maxArgs: number;
  call: () => data.ExpressionData;
};

/** The status functions for each outcome, made once: every evaluation reads one of them. */
const statusFunctionMaps = new Map(
  (["success", "failure", "cancelled"] as const).map((status) => {
    const values: Record<(typeof STATUS_FUNCTIONS)[number], boolean> = {
      success: status === "success",
      failure: status === "failure",
      cancelled: status === "cancelled",
      always: true,
    };
    const functions = new Map<string, StatusFunction>();
    for (const name of STATUS_FUNCTIONS) {
      functions.set(name, {
        name,
        minArgs: 0,
        maxArgs: 0,
        call: () => new data.BooleanData(values[name]),
      });
    }
    return [status, functions as FunctionMap] as const;
  }),
);

function statusFunctions(context: ExpressionContext): FunctionMap {
  return statusFunctionMaps.get(context.status ?? "success") as FunctionMap;
}

/**
 * The contexts an expression reads, as a view converted on access: a fan-out's units each
 * evaluate their request, and most read only `item` and `index` of the seven.
 */
function contextDictionary(context: ExpressionContext): data.Dictionary {
  return toExpressionData({
    inputs: context.inputs ?? {},
    env: context.env ?? {},
    steps: context.steps ?? {},
    item: context.item,
    index: context.index,
    previous: context.previous ?? null,
    run: context.run ?? {},
  }) as data.Dictionary;
}

/** A template string read once: the one expression it is, or its segments. */
type ReadTemplate =
  | { whole: string; segments?: undefined }
  | { whole?: undefined; segments: readonly TemplateSegment[] };

const templates = new Map<string, ReadTemplate>();
const TEMPLATE_LIMIT = 5_000;

/** A template, read once: a fan-out's units each evaluate the same templates. */
function readTemplate(template: string): ReadTemplate {
  let read = templates.get(template);
  if (!read) {
    const whole = wholeExpression(template);
    read = whole === undefined ? { segments: splitTemplate(template) } : { whole };
    if (templates.size >= TEMPLATE_LIMIT) templates.clear();
    templates.set(template, read);
  }
  return read;
}

function evaluateData(
  expression: string,
  dictionary: data.Dictionary,
  functions: FunctionMap,
): data.ExpressionData {
  const tree = parseExpression(expression);
  try {
    return new Evaluator(tree, dictionary, functions).evaluate();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ExpressionError(expression, `cannot evaluate \`${expression}\`: ${message}`, {
      cause: error,
    });
  }
}

/** How a value is written inside a longer string: primitives as text, arrays/objects as JSON. */
function interpolate(value: data.ExpressionData): string {
  if (value.kind === data.Kind.Array || value.kind === data.Kind.Dictionary) {
    return JSON.stringify(fromExpressionData(value), null, 2);
  }
  return value.coerceString();
}

/**
 * Evaluate every `${{ }}` inside a value, deeply. A string that is one whole expression
 * keeps the expression's type (an array stays an array); expressions inside longer strings
 * are interpolated (null → "", arrays/objects → JSON). Object keys are left as written.
 * Never uses `eval` or `Function`: GitHub's own evaluator walks the parsed tree.
 *
 * @example
 * ```ts
 * evaluateValue({ n: "${{ inputs.scenes }}", file: "clip-${{ index }}.mp4" }, context);
 * // { n: 3, file: "clip-0.mp4" }
 * ```
 */
export function evaluateValue(value: unknown, context: ExpressionContext): unknown {
  // Built on the first expression: most bodies have none, and converting every step's
  // outputs for each unit made a long pipeline quadratic.
  let dictionary: data.Dictionary | undefined;
  let functions: FunctionMap;
  const evaluate = (expression: string): data.ExpressionData => {
    if (!dictionary) {
      dictionary = contextDictionary(context);
      functions = statusFunctions(context);
    }
    return evaluateData(expression, dictionary, functions);
  };
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") {
      if (!hasExpressionMarker(node)) return node;
      const read = readTemplate(node);
      if (read.whole !== undefined) return fromExpressionData(evaluate(read.whole));
      let text = "";
      for (const segment of read.segments) {
        text += segment.type === "text" ? segment.text : interpolate(evaluate(segment.expression));
      }
      return text;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === "object") {
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(node))
        defineKey(result, key, walk((node as Record<string, unknown>)[key]));
      return result;
    }
    return node;
  };
  return walk(value);
}

/**
 * True when an `if:` expression uses a status function (`success()`, `failure()`,
 * `always()`, `cancelled()`); otherwise GitHub semantics add an implicit `success() &&`.
 *
 * @example
 * ```ts
 * conditionUsesStatusFunction("${{ always() }}"); // true
 * ```
 */
export function conditionUsesStatusFunction(expression: string): boolean {
  const text = unwrapCondition(expression);
  return new RegExp(`\\b(${STATUS_FUNCTIONS.join("|")})\\s*\\(`, "i").test(
    text.replace(/'(?:[^']|'')*'/g, "''"),
  );
}

function unwrapCondition(expression: string): string {
  const whole = wholeExpression(expression);
  if (whole !== undefined) return whole;
  if (hasExpressionMarker(expression)) {
    throw new ExpressionError(
      expression,
      `an \`if:\` condition must be one expression, not text around \`\${{ }}\``,
    );
  }
  return expression.trim();
}

/**
 * Evaluate an `if:` condition, written with or without `${{ }}`, to a boolean (truthiness
 * as in GitHub Actions). Without a status function the condition only holds while the run
 * is succeeding (implicit `success() &&`).
 *
 * @example
 * ```ts
 * evaluateCondition("inputs.scenes > 2", context); // true when scenes is 3
 * evaluateCondition("${{ failure() }}", { ...context, status: "failure" }); // true
 * ```
 */
export function evaluateCondition(expression: string, context: ExpressionContext): boolean {
  const text = unwrapCondition(expression);
  if (!conditionUsesStatusFunction(text) && (context.status ?? "success") !== "success")
    return false;
  const result = evaluateData(text, contextDictionary(context), statusFunctions(context));
  switch (result.kind) {
    case data.Kind.Null:
      return false;
    case data.Kind.Boolean:
      return result.value;
    case data.Kind.Number:
      return !(result.value === 0 || Number.isNaN(result.value));
    case data.Kind.String:
      return result.value.length > 0;
    default:
      return true;
  }
}
