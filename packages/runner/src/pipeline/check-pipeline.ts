import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { ExpressionError } from "../expressions/expression-error.js";
import { parseExpression } from "../expressions/parse-expression.js";
import { collectReferencePaths, containsExpression } from "../expressions/references.js";
import { conditionAsTemplate, splitTemplate, wholeExpression } from "../expressions/template.js";
import { findCycles, stepDependencies } from "../plan/build-graph.js";
import { type KindChecks, stepOutputNames } from "../steps/built-in-kinds.js";
import { dataUriImageProblem, imageFileProblem } from "../steps/image-file.js";
import type { CheckContext } from "../steps/step-kind.js";
import { checkTypes } from "./check-types.js";
import type { VideoModelCatalog } from "./core-shim.js";
import { inputTypes } from "./input-types.js";
import type { StepSpec } from "./pipeline-schema.js";
import { closest } from "./schema-errors.js";

/** A problem found beyond the schema, located by document path. */
export interface PipelineProblem {
  path: (string | number)[];
  atKey?: boolean;
  /** When the problem is inside a string: which `${{` (0-based) it concerns. */
  expressionIndex?: number;
  message: string;
  severity: "error" | "warning";
  code: string;
  hint?: string;
}

type Raw = Record<string, unknown>;
const RUN_FIELDS = ["id", "dir", "name"];
const isObject = (value: unknown): value is Raw =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Visit every string inside a value with its path. */
function forEachString(
  value: unknown,
  path: (string | number)[],
  visit: (text: string, path: (string | number)[]) => void,
): void {
  if (typeof value === "string") visit(value, path);
  else if (Array.isArray(value))
    value.forEach((item, index) => {
      forEachString(item, [...path, index], visit);
    });
  else if (isObject(value))
    for (const key of Object.keys(value)) forEachString(value[key], [...path, key], visit);
}

/** Expression syntax: every `${{ }}` must parse with GitHub's parser. */
/** A bare `if:` condition (GitHub allows leaving out `${{ }}`) is an expression too. */
function readableText(text: string, path: readonly (string | number)[]): string {
  return path.length === 3 && path[0] === "steps" && path[2] === "if"
    ? conditionAsTemplate(text)
    : text;
}

function checkExpressionSyntax(data: Raw, problems: PipelineProblem[]): void {
  forEachString(data, [], (written, path) => {
    const text = readableText(written, path);
    if (!text.includes("${{")) return;
    let segments: ReturnType<typeof splitTemplate>;
    try {
      segments = splitTemplate(text);
    } catch (error) {
      const count = text.slice(0, (error as ExpressionError).offset ?? 0).split("${{").length - 1;
      problems.push({
        path,
        expressionIndex: count,
        message: (error as Error).message,
        severity: "error",
        code: "EXPRESSION_SYNTAX",
      });
      return;
    }
    let index = 0;
    for (const segment of segments) {
      if (segment.type !== "expression") continue;
      try {
        parseExpression(segment.expression);
      } catch (error) {
        const message = ExpressionError.isInstance(error) ? error.message : String(error);
        problems.push({
          path,
          expressionIndex: index,
          message,
          severity: "error",
          code: "EXPRESSION_SYNTAX",
          hint: "contexts: inputs, env, steps.<id>.outputs, item, index, run",
        });
      }
      index += 1;
    }
  });
}

interface Scope {
  steps: Map<string, { kind: string | undefined; fanOut: boolean; json: boolean }>;
  inputs: Set<string>;
  env: Set<string>;
}

/** References to unknown steps, outputs, inputs, env; item/index outside for_each. */
function checkReferences(
  value: unknown,
  path: (string | number)[],
  scope: Scope,
  allowsItem: boolean,
  problems: PipelineProblem[],
): void {
  forEachString(value, path, (written, stringPath) => {
    const text = readableText(written, stringPath);
    if (!text.includes("${{")) return;
    let segments: ReturnType<typeof splitTemplate>;
    try {
      segments = splitTemplate(text);
    } catch {
      return;
    }
    let expressionIndex = -1;
    for (const segment of segments) {
      if (segment.type !== "expression") continue;
      expressionIndex += 1;
      const report = (
        message: string,
        code: string,
        hint?: string,
        severity: "error" | "warning" = "error",
      ) => problems.push({ path: stringPath, expressionIndex, message, code, hint, severity });
      for (const reference of collectReferencePaths(`\${{ ${segment.expression} }}`)) {
        const [first, second, third, fourth] = reference.path;
        if (reference.context === "item" || reference.context === "index") {
          if (!allowsItem)
            report(
              `\`${reference.context}\` is only defined inside a step with \`for_each\``,
              "ITEM_OUTSIDE_FOR_EACH",
            );
          continue;
        }
        if (typeof first !== "string" || first === "*") continue;
        if (reference.context === "run" && !RUN_FIELDS.includes(first)) {
          report(
            `\`run.${first}\` does not exist; run has ${RUN_FIELDS.join(", ")}`,
            "UNKNOWN_RUN_FIELD",
          );
        } else if (reference.context === "inputs" && !scope.inputs.has(first)) {
          const suggestion = closest(first, scope.inputs);
          report(
            `unknown input \`${first}\``,
            "UNKNOWN_INPUT",
            suggestion
              ? `did you mean \`${suggestion}\`?`
              : scope.inputs.size
                ? `declared inputs: ${[...scope.inputs].join(", ")}`
                : "this pipeline declares no `inputs`",
          );
        } else if (reference.context === "env" && !scope.env.has(first)) {
          report(
            `\`env.${first}\` is not set in the pipeline's \`env\``,
            "UNKNOWN_ENV",
            undefined,
            "warning",
          );
        } else if (reference.context === "steps") {
          const step = scope.steps.get(first);
          if (!step) {
            const suggestion = closest(first, scope.steps.keys());
            report(
              `unknown step \`${first}\``,
              "UNKNOWN_STEP",
              suggestion ? `did you mean \`${suggestion}\`?` : undefined,
            );
            continue;
          }
          if (second === undefined) continue;
          if (second !== "outputs" && second !== "status") {
            report(
              `\`steps.${first}.${String(second)}\` does not exist; use \`steps.${first}.outputs.<name>\``,
              "UNKNOWN_OUTPUT",
            );
            continue;
          }
          const outputs = step.kind ? stepOutputNames[step.kind] : undefined;
          const name = step.fanOut
            ? third === "*" || typeof third === "number"
              ? fourth
              : undefined
            : third;
          if (step.fanOut && typeof third === "string" && third !== "*") {
            report(
              `step \`${first}\` runs for each item, so its outputs are a list: use \`steps.${first}.outputs.*.${third}\` or \`steps.${first}.outputs[0].${third}\``,
              "UNKNOWN_OUTPUT",
            );
            continue;
          }
          if (
            second === "outputs" &&
            outputs &&
            typeof name === "string" &&
            name !== "*" &&
            !outputs.includes(name)
          ) {
            const suggestion = closest(name, outputs);
            report(
              `step \`${first}\` (${step.kind}) has no output \`${name}\``,
              "UNKNOWN_OUTPUT",
              suggestion
                ? `did you mean \`${suggestion}\`? outputs: ${outputs.join(", ")}`
                : `outputs: ${outputs.join(", ")}`,
            );
          } else if (name === "json" && step.kind === "chat" && !step.json) {
            report(
              `\`steps.${first}.outputs.json\` is only set when that step has \`json: true\` or \`schema\``,
              "OUTPUT_MAYBE_MISSING",
              undefined,
              "warning",
            );
          }
        }
      }
    }
  });
}

/** Local files the pipeline names literally (images, sub-pipelines) must exist before anything is sent. */
function checkLocalFiles(rawSteps: unknown[], baseDir: string, problems: PipelineProblem[]): void {
  const check = (value: unknown, path: (string | number)[], what: string) => {
    if (typeof value !== "string" || value.includes("${{") || /^https?:/i.test(value)) return;
    const invalidImage = (reason: string) =>
      problems.push({
        path,
        message: `image ${/^data:/i.test(value) ? "data URI" : value} cannot be sent: ${reason}`,
        severity: "error",
        code: "IMAGE_INVALID",
        hint: "images are PNG, JPEG, GIF or WebP files of at most 10 MiB",
      });
    if (/^data:/i.test(value)) {
      const reason = what === "image" ? dataUriImageProblem(value) : undefined;
      if (reason) invalidImage(reason);
      return;
    }
    const file = isAbsolute(value) ? value : resolve(baseDir, value);
    let found = false;
    let exists = false;
    try {
      const info = statSync(file);
      exists = true;
      found = info.isFile();
    } catch {
      found = false;
    }
    if (exists && !found) {
      problems.push({
        path,
        message: `${what} ${value} is not a file (a directory or a device)`,
        severity: "error",
        code: "NOT_A_FILE",
      });
    } else if (!found) {
      problems.push({
        path,
        message: `${what} not found: ${value}`,
        severity: "error",
        code: "FILE_NOT_FOUND",
        hint: "relative paths are resolved from the pipeline file's folder",
      });
    } else if (what === "image") {
      const reason = imageFileProblem(file);
      if (reason) invalidImage(reason);
    }
  };
  rawSteps.forEach((step, index) => {
    if (!isObject(step)) return;
    const chat = step.chat;
    if (isObject(chat)) {
      if (Array.isArray(chat.images)) {
        chat.images.forEach((image, i) => {
          check(image, ["steps", index, "chat", "images", i], "image");
        });
      }
      if (Array.isArray(chat.tools)) {
        chat.tools.forEach((tool, i) => {
          if (isObject(tool))
            check(tool.pipeline, ["steps", index, "chat", "tools", i, "pipeline"], "tool pipeline");
        });
      }
    }
    if (isObject(step.video)) check(step.video.image, ["steps", index, "video", "image"], "image");
  });
}

function literalMatchesType(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
    case "file":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    default:
      return isObject(value);
  }
}

/**
 * Checks beyond the schema: ids, references, cycles, `item` scope, expression syntax,
 * input defaults, and each kind's own checks (with pipeline defaults merged).
 * Works on partially invalid data; `invalidPaths` marks subtrees the schema rejected.
 */
export function checkPipeline(
  data: Raw,
  options: {
    videoModels: VideoModelCatalog | undefined;
    invalidPaths: readonly (string | number)[][];
    definitions: readonly KindChecks[];
    /** Directory local files named by the pipeline are relative to (undefined for inline text). */
    baseDir?: string;
  },
): PipelineProblem[] {
  const problems: PipelineProblem[] = [];
  const kindNames = options.definitions.map((definition) => definition.kind);
  checkExpressionSyntax(data, problems);

  const inputs = isObject(data.inputs) ? data.inputs : {};
  for (const [name, declaration] of Object.entries(inputs)) {
    if (
      !isObject(declaration) ||
      typeof declaration.type !== "string" ||
      !inputTypes.includes(declaration.type as never)
    )
      continue;
    if (
      declaration.default !== undefined &&
      !literalMatchesType(declaration.type, declaration.default)
    ) {
      problems.push({
        path: ["inputs", name, "default"],
        message: `default of input \`${name}\` is not of type ${declaration.type}`,
        severity: "error",
        code: "INPUT_DEFAULT_TYPE",
      });
    }
  }
  const rawSteps = Array.isArray(data.steps) ? data.steps : [];
  const scope: Scope = {
    steps: new Map(),
    inputs: new Set(Object.keys(inputs)),
    env: new Set(isObject(data.env) ? Object.keys(data.env) : []),
  };
  const firstIndex = new Map<string, number>();
  rawSteps.forEach((step, index) => {
    if (!isObject(step) || typeof step.id !== "string") return;
    if (firstIndex.has(step.id)) {
      problems.push({
        path: ["steps", index, "id"],
        message: `duplicate step id \`${step.id}\` (first used by step ${(firstIndex.get(step.id) ?? 0) + 1})`,
        severity: "error",
        code: "DUPLICATE_ID",
      });
      return;
    }
    firstIndex.set(step.id, index);
    const kinds = kindNames.filter((kind) => Object.hasOwn(step, kind));
    const body = kinds.length === 1 && kinds[0] ? step[kinds[0]] : undefined;
    scope.steps.set(step.id, {
      kind: kinds.length === 1 ? kinds[0] : undefined,
      fanOut: step.for_each !== undefined,
      json: isObject(body) && (body.json === true || body.schema !== undefined),
    });
  });

  const defaults = isObject(data.defaults)
    ? (data.defaults as Record<string, Record<string, unknown>>)
    : {};
  const dependencies = new Map<string, Set<string>>();
  rawSteps.forEach((step, index) => {
    if (!isObject(step) || typeof step.id !== "string") return;
    const fanOut = step.for_each !== undefined;
    for (const key of Object.keys(step)) {
      if (key === "id" || key === "name") continue;
      const allowsItem = fanOut && key !== "for_each";
      checkReferences(step[key], ["steps", index, key], scope, allowsItem, problems);
    }
    if (Array.isArray(step.needs)) {
      step.needs.forEach((need, needIndex) => {
        if (typeof need !== "string") return;
        if (need === step.id)
          problems.push({
            path: ["steps", index, "needs", needIndex],
            message: `step \`${need}\` cannot need itself`,
            severity: "error",
            code: "CYCLE",
          });
        else if (!scope.steps.has(need)) {
          const suggestion = closest(need, scope.steps.keys());
          problems.push({
            path: ["steps", index, "needs", needIndex],
            message: `\`needs\` names unknown step \`${need}\``,
            severity: "error",
            code: "UNKNOWN_STEP",
            hint: suggestion ? `did you mean \`${suggestion}\`?` : undefined,
          });
        }
      });
    }
    if (step.max_parallel !== undefined && !fanOut) {
      problems.push({
        path: ["steps", index, "max_parallel"],
        atKey: true,
        message: "`max_parallel` only applies to a step with `for_each`",
        severity: "warning",
        code: "MAX_PARALLEL_WITHOUT_FOR_EACH",
      });
    }
    if (typeof step.for_each === "string" && wholeExpression(step.for_each) === undefined) {
      problems.push({
        path: ["steps", index, "for_each"],
        message: "`for_each` must be a list or one whole expression giving a list, not text",
        severity: "error",
        code: "FOR_EACH_NOT_A_LIST",
        hint: `write \`for_each: \${{ steps.<id>.outputs.json.items }}\` with nothing around it`,
      });
    }
    if (
      typeof step.if === "string" &&
      step.if.includes("${{") &&
      wholeExpression(step.if) === undefined
    ) {
      problems.push({
        path: ["steps", index, "if"],
        message: `an \`if:\` condition must be one expression, not text around \`\${{ }}\``,
        severity: "error",
        code: "CONDITION_NOT_AN_EXPRESSION",
      });
    }
    if (firstIndex.get(step.id) === index)
      dependencies.set(step.id, stepDependencies(step as unknown as StepSpec));

    const kinds = kindNames.filter((name) => Object.hasOwn(step, name));
    const kind = kinds.length === 1 ? kinds[0] : undefined;
    const definition = kind ? options.definitions.find((entry) => entry.kind === kind) : undefined;
    if (!kind || !definition?.check) return;
    const body = step[kind];
    if (!isObject(body)) return;
    const kindDefaults = isObject(defaults[kind]) ? defaults[kind] : {};
    const merged: Raw = { ...kindDefaults, ...body };
    const context: CheckContext = {
      report(path, message, reportOptions) {
        const head = path[0];
        const base: (string | number)[] =
          head === undefined || Object.hasOwn(body, head)
            ? ["steps", index, kind]
            : Object.hasOwn(kindDefaults, head)
              ? ["defaults", kind]
              : ["steps", index, kind];
        problems.push({
          path: head === undefined ? ["steps", index, kind] : [...base, ...path],
          atKey: head === undefined,
          message,
          severity: reportOptions?.severity ?? "error",
          code: reportOptions?.code ?? `${kind.toUpperCase()}_CHECK`,
          hint: reportOptions?.hint,
        });
      },
      isLiteral: (value) => !containsExpression(value),
      videoModels: options.videoModels,
      defaults,
    };
    try {
      (definition.check as (spec: unknown, context: CheckContext) => void)(merged, context);
    } catch {
      // a malformed body the schema already reports
    }
  });

  if (options.baseDir !== undefined) checkLocalFiles(rawSteps, options.baseDir, problems);
  if (data.outputs !== undefined)
    checkReferences(data.outputs, ["outputs"], scope, false, problems);
  checkTypes(data, kindNames, problems);
  for (const cycle of findCycles(dependencies)) {
    const start = cycle[0] ?? "";
    problems.push({
      path: ["steps", firstIndex.get(start) ?? 0, "id"],
      message: `dependency cycle: ${cycle.join(" → ")}`,
      severity: "error",
      code: "CYCLE",
      hint: "a step cannot use, directly or through others, the outputs of a step that waits for it",
    });
  }
  // A value the schema rejected is reported once, by the schema.
  const isUnder = (path: readonly (string | number)[], prefix: readonly (string | number)[]) =>
    prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
  return problems.filter(
    (problem) => !options.invalidPaths.some((bad) => isUnder(problem.path, bad)),
  );
}
