import { createRequire } from "node:module";
import { dirname } from "node:path";
import { modelNoun } from "../errors/unknown-model-error.js";
import { builtInStepKinds, isBuiltInKindSet, kindsByName } from "../steps/registry.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";
import type { PipelineProblem } from "./check/check-model.js";
import { checkPipeline } from "./check/check-pipeline.js";
import { judgeModelUses, type ModelKnowledge } from "./check/model-names.js";
import { modelUsesOf } from "./check/model-uses.js";
import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";
import { PipelineLoadError } from "./errors/pipeline-load-error.js";
import {
  type LoadedPipeline,
  type ParsedPipeline,
  type PipelineSource,
  parsePipeline,
  toLoadedPipeline,
} from "./load-pipeline.js";
import { schemaProblems } from "./schema-errors.js";
import { createAjv, generatedValidators, type SchemaValidator } from "./standalone-validators.js";
import { diagnoseTree } from "./sub-pipelines.js";

/** A pipeline schema (plain JSON Schema: error messages read it) and its validator. */
interface PipelineChecker {
  schema: object;
  validate: SchemaValidator;
  kinds: ReadonlyMap<string, AnyStepKind>;
}

const require = createRequire(import.meta.url);
const ajvOptions = { allErrors: true, strict: false, logger: false } as const;
let builtIn: PipelineChecker | undefined;
const custom = new WeakMap<readonly StepKindSpec<never>[], PipelineChecker>();

/**
 * The checker for a set of step kinds. The built-in kinds use the JSON Schema generated from
 * the TypeBox source at build time (`schema/pipeline.schema.json`, kept equal to it by
 * json-schema.test.ts) and its build-time ajv validator, so validating loads neither TypeBox
 * nor ajv's compiler. Custom kinds load the TypeBox builders here, once per set.
 */
async function pipelineChecker(
  stepKinds: readonly StepKindSpec<never>[] | undefined,
): Promise<PipelineChecker> {
  if (!stepKinds || isBuiltInKindSet(stepKinds.map((kind) => kind.kind))) {
    if (!builtIn) {
      const schema = require("../../schema/pipeline.schema.json") as object;
      const validate = generatedValidators()?.pipeline ?? createAjv(ajvOptions).compile(schema);
      builtIn = { schema, validate, kinds: kindsByName(builtInStepKinds) };
    }
    return stepKinds ? { ...builtIn, kinds: kindsByName(stepKinds) } : builtIn;
  }
  let entry = custom.get(stepKinds);
  if (!entry) {
    const kinds = kindsByName(stepKinds);
    const { createPipelineSchema } = await import("./pipeline-schema.js");
    const schema = await createPipelineSchema([...kinds.values()]);
    entry = { schema, validate: createAjv(ajvOptions).compile(schema), kinds };
    custom.set(stepKinds, entry);
  }
  return entry;
}
/** Options of `validatePipeline` and `loadPipeline`. */
export interface ValidateOptions {
  /**
   * The other model catalogs, by provider profile section (`image_models`, `speech_models`,
   * `transcription_models`): literal values are checked against them (none: not checked).
   */
  catalogs?: ModelCatalogs;
  /**
   * The step kinds the pipeline may use (default: chat, video, ffmpeg). Pass a run's kinds,
   * custom ones included, to validate their bodies with their own schemas and checks.
   */
  stepKinds?: readonly StepKindSpec<never>[];
  /**
   * The one model check (`judgeModelUses`), run when this or `catalogs` is given: every model
   * the steps name (input defaults, or the given `inputs`, included) against `catalogs`, the
   * service's list when read (`listed`), and why a section neither holds is not checked
   * (`unchecked`: a warning per model; none: silent). An unknown model is an error with the
   * closest known one. `false`: not checked here (a run checks its models with the
   * service's list before its first request: `checkModels`).
   */
  models?:
    | false
    | (Omit<ModelKnowledge, "catalogs"> & {
        /** The run's given inputs (`--input`): a model field that is one input is checked with its value. */
        inputs?: Readonly<Record<string, unknown>> | undefined;
      });
}

/** The model check's problems of one pipeline file, as the other checks' problems. */
function modelProblems(
  data: Record<string, unknown>,
  kinds: ReadonlyMap<string, AnyStepKind>,
  options: ValidateOptions,
  root: boolean,
): PipelineProblem[] {
  const given = options.models || {};
  const uses = modelUsesOf(data, kinds, root ? given.inputs : undefined);
  const judged = judgeModelUses(uses, { ...given, catalogs: options.catalogs }, kinds);
  const problems: PipelineProblem[] = [];
  for (const use of judged.unknown) {
    const known = judged.known.find((entry) => entry.catalog === use.catalog);
    const ids = known?.models.join(", ") || known?.empty || "none known";
    problems.push({
      path: use.path,
      severity: "error",
      code: "unknown_model",
      message: `unknown ${modelNoun(use.catalog)} \`${use.model}\`${use.from ? ` (${use.from})` : ""}${use.near ? `; did you mean \`${use.near}\`?` : ""}`,
      hint: `${use.near ? `did you mean \`${use.near}\`? ` : ""}known models: ${ids}${use.declared.advice && !use.near ? `. ${use.declared.advice(use.model)}` : ""}`,
    });
  }
  for (const use of judged.unchecked) {
    problems.push({
      path: use.path,
      severity: "warning",
      code: "model_not_checked",
      message: `${modelNoun(use.catalog)} \`${use.model}\`${use.from ? ` (${use.from})` : ""} is not checked: ${given.unchecked}`,
    });
  }
  return given.unchecked ? problems : problems.filter((p) => p.severity === "error");
}

function locate(
  parsed: ParsedPipeline,
  path: readonly (string | number)[],
  options: { atKey?: boolean; expressionIndex?: number; needle?: { text: string; at: number } },
): { line: number; column: number } {
  if (options.expressionIndex !== undefined) {
    const raw = parsed.sourceMap.rawText(path);
    if (raw) {
      let offset = -1;
      for (let index = 0; index <= options.expressionIndex; index++) {
        offset = raw.text.indexOf("${{", offset + 1);
        if (offset === -1) break;
      }
      if (offset !== -1 && options.needle) {
        // The name the problem is about, inside this expression (not the next one).
        const end = raw.text.indexOf("}}", offset);
        const name = new RegExp(
          `(?<![\\w.])${options.needle.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\./g, "\\s*\\.\\s*")}(?![\\w-])`,
        ).exec(raw.text.slice(offset, end === -1 ? undefined : end));
        if (name) {
          const skipped = name[0].length - (options.needle.text.length - options.needle.at);
          return parsed.sourceMap.positionOfOffset(raw.offset + offset + name.index + skipped);
        }
      }
      if (offset !== -1) return parsed.sourceMap.positionOfOffset(raw.offset + offset);
    }
  }
  return parsed.sourceMap.position(path, { key: options.atKey });
}

/** Problems of an already parsed pipeline, as diagnostics. */
function diagnosePipeline(
  parsed: ParsedPipeline,
  checker: PipelineChecker,
  options?: ValidateOptions,
  root = true,
): Diagnostic[] {
  const { schema: pipelineSchema, validate, kinds } = checker;
  const data = parsed.data as Record<string, unknown>;
  validate(data);
  const kindNames = [...kinds.keys()];
  const schema = schemaProblems(validate.errors ?? [], data, pipelineSchema, kindNames);
  const semantic = checkPipeline(data, {
    kinds,
    ...(parsed.path === "<inline>" ? {} : { baseDir: dirname(parsed.path) }),
    catalogs: options?.catalogs,
    invalidPaths: schema.filter((problem) => problem.valueInvalid).map((problem) => problem.path),
  });
  if (options?.models !== false && (options?.catalogs || options?.models))
    semantic.push(...modelProblems(data, kinds, options, root));
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const problem of [
    ...schema.map((p) => ({
      ...p,
      severity: "error" as const,
      code: "schema",
      expressionIndex: undefined,
    })),
    ...semantic,
  ]) {
    const { line, column } = locate(parsed, problem.path, problem);
    const key = `${line}:${column}:${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push({
      severity: problem.severity,
      code: problem.code,
      message: problem.message,
      file: parsed.displayPath,
      line,
      column,
      sourceLine: parsed.sourceMap.lineText(line),
      ...(problem.hint ? { hint: problem.hint } : {}),
    });
  }
  return sortDiagnostics(diagnostics);
}

/**
 * Check a pipeline and report EVERY problem at once, each at the offending node: schema
 * errors, duplicate ids, unknown steps/outputs/inputs, cycles, `item` outside `for_each`,
 * expression syntax, literal video limits, stop count, sampling ranges, tool_choice,
 * output paths, and every sub-pipeline a chat tool names (recursively, each against its own
 * file; cycles and too deep nesting at the naming `pipeline:` entry). Never throws for a bad pipeline; `pipeline` is set when there are no errors.
 *
 * @example
 * ```ts
 * const { pipeline, diagnostics } = await validatePipeline("storyboard.yaml");
 * for (const d of diagnostics) console.error(formatDiagnostic(d));
 * ```
 */
export async function validatePipeline(
  pathOrSource: PipelineSource,
  options?: ValidateOptions,
): Promise<{ pipeline?: LoadedPipeline; diagnostics: Diagnostic[] }> {
  let parsed: ParsedPipeline;
  try {
    parsed = await parsePipeline(pathOrSource);
  } catch (error) {
    if (PipelineLoadError.isInstance(error)) return { diagnostics: error.diagnostics };
    throw error;
  }
  const checker = await pipelineChecker(options?.stepKinds);
  const diagnostics = await diagnoseTree(parsed, (each) =>
    diagnosePipeline(each, checker, options, each === parsed),
  );
  const failed = diagnostics.some((diagnostic) => diagnostic.severity === "error");
  return failed ? { diagnostics } : { pipeline: toLoadedPipeline(parsed), diagnostics };
}

/**
 * Read, parse and validate a pipeline file (or inline text). Throws PipelineLoadError
 * (code pipeline_unreadable, pipeline_syntax or pipeline_invalid) carrying every diagnostic.
 *
 * @example
 * ```ts
 * const pipeline = await loadPipeline("storyboard.yaml");
 * pipeline.spec.steps.map((step) => step.id);
 * ```
 */
export async function loadPipeline(
  pathOrSource: PipelineSource,
  options?: ValidateOptions,
): Promise<LoadedPipeline> {
  const parsed = await parsePipeline(pathOrSource);
  const passed = passedInline(parsed, options);
  if (passed?.has(parsed.hash)) return toLoadedPipeline(parsed);
  const checker = await pipelineChecker(options?.stepKinds);
  const diagnostics = await diagnoseTree(parsed, (each) =>
    diagnosePipeline(each, checker, options, each === parsed),
  );
  if (diagnostics.some((diagnostic) => diagnostic.severity === "error")) {
    throw new PipelineLoadError("pipeline_invalid", parsed.displayPath, diagnostics);
  }
  if (passed) {
    if (passed.size >= PASSED_INLINE_KEPT) passed.delete(passed.keys().next().value as string);
    passed.add(parsed.hash);
  }
  return toLoadedPipeline(parsed);
}

/** How many valid inline texts are remembered per set of kinds and catalogs. */
const PASSED_INLINE_KEPT = 64;
const builtInKinds = {};
const noCatalogs = {};
const passedInlineTexts = new WeakMap<object, WeakMap<object, Set<string>>>();

/**
 * The hashes of inline pipelines found valid with the same kinds and catalogs, when this
 * check is one of them: an inline pipeline names no file the check reads (nothing is
 * relative to it) and no sub-pipeline, so its verdict is a function of its text, its kinds
 * and its catalogs, and a process that runs the same text again need not check it again. A
 * file, or a check of the models with a service's list or given inputs, is checked each
 * time (undefined).
 */
function passedInline(
  parsed: ParsedPipeline,
  options: ValidateOptions | undefined,
): Set<string> | undefined {
  if (parsed.path !== "<inline>" || (options?.models !== undefined && options.models !== false))
    return undefined;
  const byKinds = options?.stepKinds ?? builtInKinds;
  const byCatalogs = passedInlineTexts.get(byKinds) ?? new WeakMap<object, Set<string>>();
  passedInlineTexts.set(byKinds, byCatalogs);
  const catalogs = options?.catalogs ?? noCatalogs;
  const hashes = byCatalogs.get(catalogs) ?? new Set<string>();
  byCatalogs.set(catalogs, hashes);
  return hashes;
}
