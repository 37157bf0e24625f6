import { data, type Expr } from "@actions/expressions";
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
import { parseExpression } from "../../expressions/parse-expression.js";
import { templateCloses, wholeExpression } from "../../expressions/template.js";
import {
  arrayOf,
  BOOLEAN,
  describeType,
  NUMBER,
  objectOf,
  STRING,
  type StaticType,
  typeOfInput,
  UNKNOWN,
} from "../../steps/static-types.js";
import { closest } from "../schema-errors.js";
import { type CheckModel, isObject, type PipelineProblem } from "./check-model.js";
import { walkExpressions } from "./expression-walker.js";

interface TypeScope {
  inputs: Map<string, StaticType>;
  steps: Map<string, StaticType>;
  /** What each step's kind advises when one of its outputs is misread. */
  hints: Map<string, Readonly<Record<string, string>>>;
  item: StaticType;
  /** `previous` in a sequential fan-out: the item before, its index and its outputs. */
  previous: StaticType;
}

type Report = (message: string, code: string, hint?: string) => void;

/** A reference chain `context.a.b[0].*.c` with only static segments, else undefined. */
function chainOf(node: Expr): { root: string; path: (string | number)[] } | undefined {
  const path: (string | number)[] = [];
  let current: Expr = node;
  while (current instanceof IndexAccess) {
    const index = current.index;
    if (index instanceof Star) path.unshift("*");
    else if (
      index instanceof Literal &&
      (index.literal.kind === data.Kind.String || index.literal.kind === data.Kind.Number)
    )
      path.unshift(index.literal.value as string | number);
    else return undefined;
    current = current.expr;
  }
  if (!(current instanceof ContextAccess)) return undefined;
  return { root: current.name.lexeme.toLowerCase(), path };
}

/** The type after reading `path` from a value of type `type`; reports impossible reads. */
function follow(
  type: StaticType,
  path: readonly (string | number)[],
  shown: string,
  report: Report,
): StaticType {
  const [segment, ...rest] = path;
  if (segment === undefined || type.type === "unknown") return type;
  const next = typeof segment === "number" ? `${shown}[${segment}]` : `${shown}.${segment}`;
  if (type.type === "array") {
    if (segment === "*") return arrayOf(follow(type.items, rest, `${shown}.*`, report));
    if (typeof segment === "number") return follow(type.items, rest, next, report);
    return UNKNOWN; // a named read of a list: reported by the reference checks where it matters
  }
  if (type.type === "object") {
    if (segment === "*") return arrayOf(UNKNOWN);
    if (typeof segment === "string" && Object.hasOwn(type.properties, segment)) {
      return follow(type.properties[segment] ?? UNKNOWN, rest, next, report);
    }
    if (type.closed && typeof segment === "string") {
      const names = Object.keys(type.properties);
      const suggestion = closest(segment, names);
      report(
        `\`${shown}\` has no property \`${segment}\` (its schema lists ${names.map((name) => `\`${name}\``).join(", ") || "none"})`,
        "unknown_property",
        suggestion ? `did you mean \`${suggestion}\`?` : undefined,
      );
    }
    return UNKNOWN;
  }
  report(
    `\`${shown}\` is ${describeType(type)}, so \`${next}\` is always null`,
    "property_of_scalar",
  );
  return { type: "null" };
}

const BOOLEAN_FUNCTIONS = new Set(["contains", "startswith", "endswith"]);
const STRING_FUNCTIONS = new Set(["format", "join", "tojson", "hashfiles"]);

/** The static type of one parsed expression; reports impossible property reads inside it. */
function typeOf(node: Expr, scope: TypeScope, report: Report): StaticType {
  if (node instanceof IndexAccess || node instanceof ContextAccess) {
    const chain = chainOf(node);
    if (!chain) {
      if (node instanceof IndexAccess) {
        typeOf(node.expr, scope, report);
        typeOf(node.index, scope, report);
      }
      return UNKNOWN;
    }
    const [first, ...rest] = chain.path;
    if (chain.root === "index") return NUMBER;
    if (chain.root === "item") return follow(scope.item, chain.path, "item", report);
    if (chain.root === "previous") return follow(scope.previous, chain.path, "previous", report);
    if (typeof first !== "string") return UNKNOWN;
    if (chain.root === "inputs") {
      const input = scope.inputs.get(first);
      return input ? follow(input, rest, `inputs.${first}`, report) : UNKNOWN;
    }
    if (chain.root === "steps") {
      const [second, ...after] = rest;
      const outputs = scope.steps.get(first);
      if (!outputs || second !== "outputs") return second === "status" ? STRING : UNKNOWN;
      const output = after[0] === "*" || typeof after[0] === "number" ? after[1] : after[0];
      const advice = typeof output === "string" ? scope.hints.get(first)?.[output] : undefined;
      const advised: Report = (message, code, hint) => report(message, code, hint ?? advice);
      return follow(outputs, after, `steps.${first}.outputs`, advised);
    }
    return UNKNOWN;
  }
  if (node instanceof Literal) {
    if (node.literal.kind === data.Kind.String) return STRING;
    if (node.literal.kind === data.Kind.Number) return NUMBER;
    if (node.literal.kind === data.Kind.Boolean) return BOOLEAN;
    return { type: "null" };
  }
  if (node instanceof Grouping) return typeOf(node.group, scope, report);
  if (node instanceof Unary) {
    typeOf(node.expr, scope, report);
    return BOOLEAN;
  }
  if (node instanceof Binary) {
    typeOf(node.left, scope, report);
    typeOf(node.right, scope, report);
    return BOOLEAN;
  }
  if (node instanceof Logical) {
    for (const argument of node.args) typeOf(argument, scope, report);
    return UNKNOWN;
  }
  if (node instanceof FunctionCall) {
    for (const argument of node.args) typeOf(argument, scope, report);
    const name = node.functionName.lexeme.toLowerCase();
    if (BOOLEAN_FUNCTIONS.has(name)) return BOOLEAN;
    if (STRING_FUNCTIONS.has(name)) return STRING;
  }
  return UNKNOWN;
}

/** The advice of the kind of the step whose output `expression` reads, when it gives one. */
function outputHint(scope: TypeScope, expression: string): string | undefined {
  const match = /^\s*steps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(
    expression,
  );
  return match ? scope.hints.get(match[1] ?? "")?.[match[2] ?? ""] : undefined;
}

/**
 * Types every `${{ }}` inside a value (reporting impossible reads), and gives the value's type
 * when it is one whole expression (else: a string, a list or an object, as written).
 */
function typeOfValue(
  value: unknown,
  path: (string | number)[],
  scope: TypeScope,
  problems: PipelineProblem[],
): StaticType {
  let whole: StaticType = Array.isArray(value)
    ? arrayOf(UNKNOWN)
    : isObject(value)
      ? objectOf({})
      : typeof value === "string"
        ? STRING
        : UNKNOWN;
  walkExpressions(value, path, (at) => {
    const report: Report = (message, code, hint) =>
      problems.push({
        path: at.path,
        expressionIndex: at.index,
        message,
        code,
        hint,
        severity: "error",
      });
    try {
      const type = typeOf(parseExpression(at.expression), scope, report);
      if (at.whole && at.path.length === path.length) whole = type;
    } catch {
      // reported by the syntax pass
    }
  });
  return whole;
}

/**
 * Types: what every input, step output and expression gives, as far as it is known before
 * the run (each kind says what its outputs are; a fan-out's outputs are a list). Reports
 * `for_each` over something that is not a list, reads of a property a literal schema does
 * not list, and reads of a property of a string, number or boolean. Unknown types are
 * always allowed.
 */
export function typesPass(model: CheckModel): void {
  const { problems } = model;
  const scope: TypeScope = {
    inputs: new Map(),
    steps: new Map(),
    hints: new Map(),
    item: UNKNOWN,
    previous: UNKNOWN,
  };
  /** What one unit of each step gives (its kind's outputs type). */
  const unitOutputs = new Map<string, StaticType>();
  for (const [name, declaration] of Object.entries(model.inputs)) {
    scope.inputs.set(name, isObject(declaration) ? typeOfInput(declaration.type) : UNKNOWN);
  }
  for (const step of model.steps) {
    if (step.id === undefined || !step.first) continue;
    let outputs: StaticType = UNKNOWN;
    try {
      if (step.kind) outputs = step.kind.outputs((step.merged ?? {}) as never);
    } catch {
      outputs = UNKNOWN;
    }
    unitOutputs.set(step.id, outputs);
    scope.steps.set(step.id, step.fanOut ? arrayOf(outputs) : outputs);
    if (step.kind?.outputHints) scope.hints.set(step.id, step.kind.outputHints);
  }
  for (const step of model.steps) {
    const { raw, index } = step;
    let item: StaticType = UNKNOWN;
    if (raw.for_each !== undefined) {
      const path = ["steps", index, "for_each"];
      const list = typeOfValue(raw.for_each, path, { ...scope, item: UNKNOWN }, problems);
      const expression =
        typeof raw.for_each === "string" && templateCloses(raw.for_each)
          ? wholeExpression(raw.for_each)
          : undefined;
      if (list.type === "array") item = list.items;
      else if (expression !== undefined && list.type !== "unknown") {
        problems.push({
          path,
          expressionIndex: 0,
          message: `\`for_each\` needs a list, but \`${expression.trim()}\` is ${describeType(list)}`,
          severity: "error",
          code: "for_each_not_a_list",
          hint:
            outputHint(scope, expression) ??
            (/^\s*inputs\./.test(expression)
              ? "declare the input with `type: array`"
              : "give `for_each` a list (an array input, a list from an earlier step's outputs, or a fan-out's outputs)"),
        });
      }
    }
    // Null in the first item; its fields are checked by the references pass.
    const previous =
      raw.sequential === true && step.fanOut && step.id !== undefined
        ? objectOf({
            item,
            index: NUMBER,
            outputs: unitOutputs.get(step.id) ?? UNKNOWN,
          })
        : UNKNOWN;
    for (const key of Object.keys(raw)) {
      if (key === "id" || key === "name" || key === "for_each") continue;
      typeOfValue(raw[key], ["steps", index, key], { ...scope, item, previous }, problems);
    }
  }
  if (model.data.outputs !== undefined)
    typeOfValue(model.data.outputs, ["outputs"], scope, problems);
}
