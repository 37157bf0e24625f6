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
import { parseExpression } from "../expressions/parse-expression.js";
import { conditionAsTemplate, splitTemplate, wholeExpression } from "../expressions/template.js";
import type { PipelineProblem } from "./check-pipeline.js";
import { closest } from "./schema-errors.js";
import {
  arrayOf,
  BOOLEAN,
  describeType,
  NUMBER,
  objectOf,
  STRING,
  type StaticType,
  typeFromSchema,
  typeOfInput,
  UNKNOWN,
} from "./static-types.js";

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const USAGE = objectOf({ prompt_tokens: NUMBER, completion_tokens: NUMBER, total_tokens: NUMBER });

/** The outputs of one run of a step of this kind (before fan-out). */
function outputsOf(kind: string | undefined, body: Raw): StaticType {
  switch (kind) {
    case "chat": {
      const json = body.schema !== undefined ? typeFromSchema(body.schema) : UNKNOWN;
      return objectOf({ text: STRING, json, usage: USAGE, messages: arrayOf(objectOf({})) });
    }
    case "video":
      return objectOf({ file: STRING, id: STRING, url: STRING, duration: NUMBER, credits: NUMBER });
    case "ffmpeg":
      return objectOf({ file: STRING, probe: objectOf({}) });
    default:
      return UNKNOWN;
  }
}

interface TypeScope {
  inputs: Map<string, StaticType>;
  steps: Map<string, StaticType>;
  item: StaticType;
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
        "UNKNOWN_PROPERTY",
        suggestion ? `did you mean \`${suggestion}\`?` : undefined,
      );
    }
    return UNKNOWN;
  }
  report(
    `\`${shown}\` is ${describeType(type)}, so \`${next}\` is always null`,
    "PROPERTY_OF_SCALAR",
    type.type === "string"
      ? "a chat step's `text` is a string: ask for JSON with `schema:` and read `outputs.json`"
      : undefined,
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
    if (typeof first !== "string") return UNKNOWN;
    if (chain.root === "inputs") {
      const input = scope.inputs.get(first);
      return input ? follow(input, rest, `inputs.${first}`, report) : UNKNOWN;
    }
    if (chain.root === "steps") {
      const [second, ...after] = rest;
      const outputs = scope.steps.get(first);
      if (!outputs || second !== "outputs") return second === "status" ? STRING : UNKNOWN;
      return follow(outputs, after, `steps.${first}.outputs`, report);
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

/** Type every `${{ }}` in a value; the type of the value when it is one whole expression. */
function typeOfValue(
  value: unknown,
  path: (string | number)[],
  scope: TypeScope,
  problems: PipelineProblem[],
): StaticType {
  if (Array.isArray(value)) {
    value.forEach((entry, index) => {
      typeOfValue(entry, [...path, index], scope, problems);
    });
    return arrayOf(UNKNOWN);
  }
  if (isObject(value)) {
    for (const key of Object.keys(value)) typeOfValue(value[key], [...path, key], scope, problems);
    return objectOf({});
  }
  if (typeof value !== "string") return UNKNOWN;
  const text = path.length === 3 && path[2] === "if" ? conditionAsTemplate(value) : value;
  if (!text.includes("${{")) return STRING;
  let segments: ReturnType<typeof splitTemplate>;
  try {
    segments = splitTemplate(text);
  } catch {
    return UNKNOWN; // reported by the syntax checks
  }
  let expressionIndex = -1;
  let whole: StaticType = STRING;
  for (const segment of segments) {
    if (segment.type !== "expression") continue;
    expressionIndex += 1;
    const at = expressionIndex;
    const report: Report = (message, code, hint) =>
      problems.push({ path, expressionIndex: at, message, code, hint, severity: "error" });
    try {
      const type = typeOf(parseExpression(segment.expression), scope, report);
      if (wholeExpression(text) !== undefined) whole = type;
    } catch {
      return UNKNOWN;
    }
  }
  return whole;
}

/**
 * Static types: what every input, step output and expression gives, as far as it is known
 * before the run (chat `text` is a string, chat `json` has its `schema`'s type, video and
 * ffmpeg outputs, input types, a fan-out's outputs are a list). Reports `for_each` over
 * something that is not a list, reads of a property a literal schema does not list, and
 * reads of a property of a string, number or boolean. Unknown types are always allowed.
 *
 * @example
 * checkTypes(data, ["chat", "video", "ffmpeg"], problems);
 */
export function checkTypes(
  data: Raw,
  kindNames: readonly string[],
  problems: PipelineProblem[],
): void {
  const defaults = isObject(data.defaults) ? data.defaults : {};
  const scope: TypeScope = { inputs: new Map(), steps: new Map(), item: UNKNOWN };
  for (const [name, declaration] of Object.entries(isObject(data.inputs) ? data.inputs : {})) {
    scope.inputs.set(name, isObject(declaration) ? typeOfInput(declaration.type) : UNKNOWN);
  }
  const steps = Array.isArray(data.steps) ? data.steps : [];
  for (const step of steps) {
    if (!isObject(step) || typeof step.id !== "string" || scope.steps.has(step.id)) continue;
    const kinds = kindNames.filter((name) => Object.hasOwn(step, name));
    const kind = kinds.length === 1 ? kinds[0] : undefined;
    const body = kind && isObject(step[kind]) ? (step[kind] as Raw) : {};
    const kindDefaults = kind && isObject(defaults[kind]) ? (defaults[kind] as Raw) : {};
    const outputs = outputsOf(kind, { ...kindDefaults, ...body });
    scope.steps.set(step.id, step.for_each !== undefined ? arrayOf(outputs) : outputs);
  }
  steps.forEach((step, index) => {
    if (!isObject(step)) return;
    let item: StaticType = UNKNOWN;
    if (step.for_each !== undefined) {
      const path = ["steps", index, "for_each"];
      const list = typeOfValue(step.for_each, path, { ...scope, item: UNKNOWN }, problems);
      const expression =
        typeof step.for_each === "string" ? wholeExpression(step.for_each) : undefined;
      if (list.type === "array") item = list.items;
      else if (expression !== undefined && list.type !== "unknown") {
        problems.push({
          path,
          expressionIndex: 0,
          message: `\`for_each\` needs a list, but \`${expression.trim()}\` is ${describeType(list)}`,
          severity: "error",
          code: "FOR_EACH_NOT_A_LIST",
          hint: /\.outputs\.text\s*$/.test(expression)
            ? "a chat step's `text` is a string: give it a `schema:` with an array and use `steps.<id>.outputs.json.<list>`"
            : /^\s*inputs\./.test(expression)
              ? "declare the input with `type: array`"
              : "give `for_each` a list (an array input, a JSON array from a chat `schema`, or a fan-out's outputs)",
        });
      }
    }
    for (const key of Object.keys(step)) {
      if (key === "id" || key === "name" || key === "for_each") continue;
      typeOfValue(step[key], ["steps", index, key], { ...scope, item }, problems);
    }
  });
  if (data.outputs !== undefined) typeOfValue(data.outputs, ["outputs"], scope, problems);
}
