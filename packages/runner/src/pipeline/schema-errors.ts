import type { ErrorObject } from "ajv";
import { distance } from "fastest-levenshtein";

/** A schema problem at a path of the document, in words. */
export interface SchemaProblem {
  path: (string | number)[];
  /** Point at the key naming `path` rather than its value. */
  atKey?: boolean;
  message: string;
  hint?: string;
  /** True when the value at `path` itself is wrong (so further checks of it would repeat the problem). */
  valueInvalid?: boolean;
}

function decodePointer(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^(0|[1-9][0-9]*)$/.test(part) ? Number(part) : part));
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, segment))
      return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function label(path: readonly (string | number)[]): string {
  const last = path[path.length - 1];
  if (last === undefined) return "the pipeline";
  if (typeof last === "number")
    return `item ${last} of \`${String(path[path.length - 2] ?? "list")}\``;
  return `\`${last}\``;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string")
    return `the string "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return `${typeof value} ${String(value)}`;
}

/**
 * The closest candidate to a misspelt name, if any is close enough.
 *
 * @example
 * ```ts
 * closest("promt", ["prompt", "model"]); // "prompt"
 * ```
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const score = distance(name.toLowerCase(), candidate.toLowerCase());
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best !== undefined && bestScore <= Math.max(1, Math.floor(name.length / 3))
    ? best
    : undefined;
}

type Schema = Record<string, unknown>;

function describeBranch(schema: Schema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (typeof schema.pattern === "string" && schema.pattern.includes("\\$\\{\\{"))
    return `an expression \`\${{ … }}\``;
  const type = schema.type;
  if (type === "string" && typeof schema.pattern === "string") {
    if (schema.pattern.startsWith("^[1-9][0-9]{1,4}x")) return "a size like 1280x720";
    if (schema.pattern.startsWith("^[0-9]+$")) return "a string of digits";
    if (schema.pattern.includes("(ms|s|m|h)")) return 'a duration like "30s" or "5m"';
  }
  if (type === "array") return "a list";
  if (type === "object") return "a mapping";
  if (type === "integer") return "an integer";
  return typeof type === "string" ? `a ${type}` : "a value of another shape";
}

function kindMessage(
  keys: readonly string[],
  value: unknown,
  what: string,
  noun: string,
): SchemaProblem["message"] {
  const present = keys.filter(
    (key) => value !== null && typeof value === "object" && Object.hasOwn(value, key),
  );
  if (present.length === 0) return `${what} needs exactly one ${noun}: ${keys.join(", ")}`;
  return `${what} has ${present.length} ${noun}s (${present.join(", ")}); exactly one is allowed`;
}

/**
 * A step with no kind whose unknown key is a kind misspelt (`chatt:`): the key, the kind it
 * is closest to, and the "unknown field" error ajv reported for it.
 */
function misspeltKind(
  kinds: readonly string[],
  value: unknown,
  errors: readonly ErrorObject[],
  combinator: ErrorObject,
): { key: string; kind: string; error: ErrorObject } | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (kinds.some((kind) => Object.hasOwn(value, kind))) return undefined;
  const unknown = errors.filter(
    (error) =>
      error.keyword === "additionalProperties" && error.instancePath === combinator.instancePath,
  );
  const found = unknown.flatMap((error) => {
    const key = String((error.params as Record<string, unknown>).additionalProperty);
    const kind = closest(key, kinds);
    return kind ? [{ key, kind, error }] : [];
  });
  return found.length === 1 ? found[0] : undefined;
}

/**
 * One problem for a step whose only kind is misspelt, at the misspelt key; its "unknown
 * field" error, which would say the same thing a second time, is marked consumed.
 */
function misspeltKindProblem(
  kinds: readonly string[],
  value: unknown,
  path: (string | number)[],
  errors: readonly ErrorObject[],
  combinator: ErrorObject,
  consumed: Set<ErrorObject>,
): SchemaProblem | undefined {
  const misspelt = misspeltKind(kinds, value, errors, combinator);
  if (!misspelt) return undefined;
  consumed.add(misspelt.error);
  return {
    path: [...path, misspelt.key],
    atKey: true,
    message: `step \`${String((value as Schema).id ?? path[1])}\` has no kind: \`${misspelt.key}\` is not one; did you mean \`${misspelt.kind}\`?`,
    hint: `a step's kind is one of ${kinds.map((key) => `\`${key}:\``).join(", ")}`,
  };
}

/** The schema object holding the keyword that failed (ajv's `parentSchema`, found from `schemaPath`). */
function parentSchemaOf(error: ErrorObject, root: Schema): Schema {
  if (error.parentSchema) return error.parentSchema as Schema;
  const segments = error.schemaPath.replace(/^#\/?/, "").split("/").filter(Boolean).slice(0, -1);
  let node: unknown = root;
  for (const segment of segments) {
    const key = decodeURIComponent(segment.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return {};
    node = (node as Record<string, unknown>)[key];
  }
  return (node ?? {}) as Schema;
}

function simpleProblem(error: ErrorObject, data: unknown, root: Schema): SchemaProblem {
  const path = decodePointer(error.instancePath);
  const value = valueAt(data, path);
  const params = error.params as Record<string, unknown>;
  const parent = parentSchemaOf(error, root);
  switch (error.keyword) {
    case "required":
      return { path, message: `${label(path)} is missing \`${String(params.missingProperty)}\`` };
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const keyPath = [...path, key];
      if (parent.patternProperties) {
        return {
          path: keyPath,
          atKey: true,
          message: `\`${key}\` is not a valid name`,
          hint: "use letters, digits, `_` and `-`, starting with a letter or `_` (`__proto__`, `constructor` and `prototype` are reserved)",
        };
      }
      const known = Object.keys((parent.properties ?? {}) as Schema);
      const suggestion = closest(key, known);
      return {
        path: keyPath,
        atKey: true,
        message: `unknown field \`${key}\` in ${path.length ? label(path) : "the pipeline"}`,
        hint: suggestion ? `did you mean \`${suggestion}\`?` : `allowed: ${known.join(", ")}`,
      };
    }
    case "type":
      return {
        path,
        message: `${label(path)} must be ${describeBranch({ type: params.type })}, got ${typeName(value)}`,
      };
    case "pattern": {
      if (String(params.pattern).startsWith("^(?!__proto__")) {
        return {
          path,
          message: `${typeName(value)} is not a valid id`,
          hint: "use letters, digits, `_` and `-`, starting with a letter or `_` (`__proto__`, `constructor` and `prototype` are reserved)",
        };
      }
      return {
        path,
        message: `${label(path)} must be ${describeBranch(parent)}, got ${typeName(value)}`,
      };
    }
    case "enum":
    case "const":
      return {
        path,
        message: `${label(path)} must be ${describeBranch(parent)}, got ${typeName(value)}`,
      };
    default:
      return { path, message: `${label(path)} ${error.message ?? "is invalid"}` };
  }
}

/**
 * Turn ajv's errors (allErrors) into one human problem per real mistake: the
 * "exactly one kind/operation" rule gets its own sentence, alternatives (`anyOf`) are
 * summarised, or the errors of the alternative the value clearly meant are kept.
 *
 * @example
 * ```ts
 * schemaProblems(validate.errors ?? [], data, schema, kindNames).map((p) => p.message);
 * ```
 */
export function schemaProblems(
  errors: readonly ErrorObject[],
  data: unknown,
  root: object,
  kindNames: readonly string[],
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const consumed = new Set<ErrorObject>();
  const combinators = errors
    .filter((error) => error.keyword === "anyOf" || error.keyword === "oneOf")
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const combinator of combinators) {
    if (consumed.has(combinator)) continue;
    consumed.add(combinator);
    const prefix = `${combinator.schemaPath}/`;
    // Its own alternatives' errors: under its schema path AND at or under its value (one
    // schema, e.g. a map's value schema, is checked against many values).
    const at = combinator.instancePath;
    const children = errors.filter(
      (error) =>
        error !== combinator &&
        error.schemaPath.startsWith(prefix) &&
        (error.instancePath === at || error.instancePath.startsWith(`${at}/`)),
    );
    for (const child of children) consumed.add(child);
    const path = decodePointer(combinator.instancePath);
    const value = valueAt(data, path);
    if (combinator.keyword === "oneOf") {
      // "Exactly one of these keys" (a step's kind, a body's operation): the keys come from
      // the schema's own branches, each `{ required: [key] }`.
      const branches = (parentSchemaOf(combinator, root as Schema).oneOf ?? []) as Schema[];
      const keys = branches.flatMap((branch) =>
        Array.isArray(branch.required) && branch.required.length === 1
          ? [String(branch.required[0])]
          : [],
      );
      const isStep = path.length === 2 && path[0] === "steps";
      if (keys.length === 0 || keys.length !== branches.length) {
        problems.push({
          path,
          valueInvalid: true,
          message: `${label(path)} must match exactly one of its allowed shapes`,
        });
        continue;
      }
      const stepKinds = kindNames.length > 0 ? kindNames : keys;
      const misspelt = isStep
        ? misspeltKindProblem(stepKinds, value, path, errors, combinator, consumed)
        : undefined;
      if (misspelt) {
        problems.push(misspelt);
        continue;
      }
      const present = keys.filter(
        (key) => value !== null && typeof value === "object" && Object.hasOwn(value, key),
      );
      problems.push({
        path,
        message: isStep
          ? kindMessage(
              kindNames.length > 0 ? kindNames : keys,
              value,
              `step \`${String((value as Schema | undefined)?.id ?? path[1])}\``,
              "kind",
            )
          : kindMessage(
              keys,
              value,
              label(path),
              String(
                (parentSchemaOf(combinator, root as Schema) as Record<string, unknown>)[
                  "x-exactly-one"
                ] ?? "key",
              ),
            ),
        hint: isStep
          ? `a step is one of ${stepKinds.map((key) => `\`${key}:\``).join(", ")}; ${present.length > 1 ? "split it into several steps" : "add one"}`
          : undefined,
      });
      continue;
    }
    const byBranch = new Map<string, ErrorObject[]>();
    for (const child of children) {
      const branch = child.schemaPath.slice(prefix.length).split("/")[0] ?? "";
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), child]);
    }
    const deeper = [...byBranch.values()]
      .filter((list) =>
        list.some((error) => error.instancePath.length > combinator.instancePath.length),
      )
      .sort(
        (a, b) =>
          Math.max(...b.map((e) => e.instancePath.length)) -
          Math.max(...a.map((e) => e.instancePath.length)),
      );
    const meant = deeper[0];
    if (meant) {
      problems.push(...schemaProblems(meant, data, root, kindNames));
      continue;
    }
    const branches = (parentSchemaOf(combinator, root as Schema).anyOf ?? []) as Schema[];
    const options = [...new Set(branches.map(describeBranch))];
    problems.push({
      path,
      valueInvalid: true,
      message: `${label(path)} must be ${options.join(" or ")}, got ${typeName(value)}`,
    });
  }
  for (const error of errors) {
    if (consumed.has(error)) continue;
    const problem = simpleProblem(error, data, root as Schema);
    problem.valueInvalid = error.keyword !== "required" && error.keyword !== "additionalProperties";
    problems.push(problem);
  }
  return problems;
}
