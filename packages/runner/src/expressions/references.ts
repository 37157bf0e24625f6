import type { Expr } from "@actions/expressions";
import { data } from "@actions/expressions";
import {
  Binary,
  ContextAccess,
  FunctionCall,
  Grouping,
  IndexAccess,
  Literal,
  Logical,
  Star,
  Unary,
} from "@actions/expressions/ast";
import { parseExpression } from "./parse-expression.js";
import { hasExpressionMarker, splitTemplate } from "./template.js";

/** One context read inside an expression, e.g. `steps.clips.outputs.*.file`. */
export interface ReferencePath {
  /** "inputs" | "env" | "steps" | "item" | "index" | "previous" | "run". */
  context: string;
  /** Static segments after the context; `"*"` for a filter; stops at the first computed index. */
  path: (string | number)[];
  /** The expression text it was found in. */
  expression: string;
}

function chainOf(
  node: Expr,
): { root: ContextAccess; path: (string | number)[]; computed: Expr[] } | undefined {
  const path: (string | number)[] = [];
  const computed: Expr[] = [];
  let current: Expr = node;
  while (current instanceof IndexAccess) {
    const index = current.index;
    if (index instanceof Star) path.unshift("*");
    else if (
      index instanceof Literal &&
      (index.literal.kind === data.Kind.String || index.literal.kind === data.Kind.Number)
    ) {
      path.unshift(index.literal.value);
    } else {
      path.length = 0; // a computed index: only the part before it is static
      computed.push(index);
    }
    current = current.expr;
  }
  return current instanceof ContextAccess ? { root: current, path, computed } : undefined;
}

function walk(node: Expr | undefined, expression: string, found: ReferencePath[]): void {
  if (!node) return;
  if (node instanceof IndexAccess || node instanceof ContextAccess) {
    const chain = chainOf(node);
    if (chain) {
      found.push({ context: chain.root.name.lexeme.toLowerCase(), path: chain.path, expression });
      for (const computed of chain.computed) walk(computed, expression, found);
      return;
    }
    if (node instanceof IndexAccess) {
      walk(node.expr, expression, found);
      walk(node.index, expression, found);
    }
    return;
  }
  if (node instanceof Unary) walk(node.expr, expression, found);
  else if (node instanceof Binary) {
    walk(node.left, expression, found);
    walk(node.right, expression, found);
  } else if (node instanceof Logical || node instanceof FunctionCall) {
    for (const argument of node.args) walk(argument, expression, found);
  } else if (node instanceof Grouping) walk(node.group, expression, found);
}

/**
 * Every context read in a value (deeply), with its static path. Expressions that do not
 * parse are skipped here (validation reports them).
 *
 * @example
 * ```ts
 * collectReferencePaths("${{ steps.clips.outputs.*.file }}");
 * // [{ context: "steps", path: ["clips", "outputs", "*", "file"], expression: "steps.clips.outputs.*.file" }]
 * ```
 */
export function collectReferencePaths(value: unknown): ReferencePath[] {
  const found: ReferencePath[] = [];
  forEachExpression(value, (expression) => {
    try {
      walk(parseExpression(expression), expression, found);
    } catch {
      // reported by validation
    }
  });
  return found;
}

/**
 * Call `visit` with the text of every `${{ }}` expression inside a value (deeply), in order.
 * Unterminated `${{` is skipped (validation reports it).
 *
 * @example
 * ```ts
 * forEachExpression({ a: "${{ inputs.x }}" }, (expression) => console.log(expression)); // "inputs.x"
 * ```
 */
export function forEachExpression(value: unknown, visit: (expression: string) => void): void {
  if (typeof value === "string") {
    if (!hasExpressionMarker(value)) return;
    let segments: ReturnType<typeof splitTemplate>;
    try {
      segments = splitTemplate(value);
    } catch {
      return;
    }
    for (const segment of segments) if (segment.type === "expression") visit(segment.expression);
  } else if (Array.isArray(value)) {
    for (const item of value) forEachExpression(item, visit);
  } else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value))
      forEachExpression((value as Record<string, unknown>)[key], visit);
  }
}

/** Contexts that hold the current fan-out item: known only while that item runs. */
const ITEM_CONTEXTS = new Set(["item", "index", "previous"]);

/**
 * The steps, inputs and env variables a value reads, and whether it uses `item`, `index` or
 * `previous`.
 * Used to build the DAG and for the static checks.
 *
 * @example
 * ```ts
 * collectReferences({ prompt: "${{ item.description }} in ${{ env.STYLE }}" });
 * // { steps: Set{}, inputs: Set{}, env: Set{"STYLE"}, usesItem: true }
 * ```
 */
export function collectReferences(value: unknown): {
  steps: Set<string>;
  inputs: Set<string>;
  env: Set<string>;
  usesItem: boolean;
} {
  const result = {
    steps: new Set<string>(),
    inputs: new Set<string>(),
    env: new Set<string>(),
    usesItem: false,
  };
  for (const reference of collectReferencePaths(value)) {
    const first = reference.path[0];
    if (ITEM_CONTEXTS.has(reference.context)) result.usesItem = true;
    else if (typeof first === "string" && first !== "*") {
      if (reference.context === "steps") result.steps.add(first);
      else if (reference.context === "inputs") result.inputs.add(first);
      else if (reference.context === "env") result.env.add(first);
    }
  }
  return result;
}

/**
 * True when a value contains a `${{ }}` expression anywhere inside it.
 *
 * @example
 * ```ts
 * containsExpression({ seconds: 4 }); // false
 * containsExpression(["${{ inputs.a }}"]); // true
 * ```
 */
export function containsExpression(value: unknown): boolean {
  if (typeof value === "string") return hasExpressionMarker(value);
  if (Array.isArray(value)) return value.some(containsExpression);
  if (value !== null && typeof value === "object") {
    return Object.keys(value).some((key) =>
      containsExpression((value as Record<string, unknown>)[key]),
    );
  }
  return false;
}
