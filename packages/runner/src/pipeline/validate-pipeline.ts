import { dirname } from "node:path";
import type { TObject } from "@sinclair/typebox";
import { stepDefinitions } from "../steps/definitions.js";
import { checkPipeline } from "./check-pipeline.js";
import { referenceVideoModels, type VideoModelCatalog } from "./core-shim.js";
import { type AnyStepKindDefinition, createPipelineSchema } from "./custom-kinds-schema.js";
import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";
import { PipelineLoadError } from "./errors/pipeline-load-error.js";
import {
  type LoadedPipeline,
  type ParsedPipeline,
  type PipelineSource,
  parsePipeline,
  toLoadedPipeline,
} from "./load-pipeline.js";
import { PipelineSchema } from "./pipeline-schema.js";
import { schemaProblems } from "./schema-errors.js";
import { createAjv, generatedValidators, type SchemaValidator } from "./standalone-validators.js";
import { diagnoseTree } from "./sub-pipelines.js";

const compiled = new WeakMap<object, { schema: TObject; validate: SchemaValidator }>();
function schemaValidator(definitions: readonly AnyStepKindDefinition[]): {
  schema: TObject;
  validate: SchemaValidator;
} {
  let entry = compiled.get(definitions);
  if (!entry) {
    const schema = createPipelineSchema(definitions);
    const reuse = schema === PipelineSchema ? compiled.get(stepDefinitions) : undefined;
    // The built-in kinds' schema was compiled at build time; custom kinds' is compiled here.
    const prebuilt = schema === PipelineSchema ? generatedValidators()?.pipeline : undefined;
    entry = reuse ?? {
      schema,
      validate:
        prebuilt ?? createAjv({ allErrors: true, strict: false, logger: false }).compile(schema),
    };
    compiled.set(definitions, entry);
  }
  return entry;
}
/** Options of `validatePipeline` and `loadPipeline`. */
export interface ValidateOptions {
  /** Video models whose limits literal `seconds`/`size` are checked against (default: the reference catalog). */
  videoModels?: VideoModelCatalog;
  /**
   * The step kinds the pipeline may use (default: chat, video, ffmpeg). Pass a run's kinds,
   * custom ones included, to validate their bodies with their own schemas and checks.
   */
  stepKinds?: readonly AnyStepKindDefinition[];
}

function locate(
  parsed: ParsedPipeline,
  path: readonly (string | number)[],
  options: { atKey?: boolean; expressionIndex?: number },
): { line: number; column: number } {
  if (options.expressionIndex !== undefined) {
    const raw = parsed.sourceMap.rawText(path);
    if (raw) {
      let offset = -1;
      for (let index = 0; index <= options.expressionIndex; index++) {
        offset = raw.text.indexOf("${{", offset + 1);
        if (offset === -1) break;
      }
      if (offset !== -1) return parsed.sourceMap.positionOfOffset(raw.offset + offset);
    }
  }
  return parsed.sourceMap.position(path, { key: options.atKey });
}

/** Problems of an already parsed pipeline, as diagnostics. */
export function diagnosePipeline(parsed: ParsedPipeline, options?: ValidateOptions): Diagnostic[] {
  const definitions = options?.stepKinds ?? stepDefinitions;
  const { schema: pipelineSchema, validate } = schemaValidator(definitions);
  const data = parsed.data as Record<string, unknown>;
  validate(data);
  const kindNames = definitions.map((definition) => definition.kind);
  const schema = schemaProblems(validate.errors ?? [], data, pipelineSchema, kindNames);
  const semantic = checkPipeline(data, {
    definitions,
    ...(parsed.path === "<inline>" ? {} : { baseDir: dirname(parsed.path) }),
    videoModels: options?.videoModels ?? referenceVideoModels,
    invalidPaths: schema.filter((problem) => problem.valueInvalid).map((problem) => problem.path),
  });
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const problem of [
    ...schema.map((p) => ({
      ...p,
      severity: "error" as const,
      code: "SCHEMA",
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
    if (error instanceof PipelineLoadError) return { diagnostics: error.diagnostics };
    throw error;
  }
  const diagnostics = await diagnoseTree(parsed, (each) => diagnosePipeline(each, options));
  const failed = diagnostics.some((diagnostic) => diagnostic.severity === "error");
  return failed ? { diagnostics } : { pipeline: toLoadedPipeline(parsed), diagnostics };
}

/**
 * Read, parse and validate a pipeline file (or inline text). Throws PipelineLoadError
 * (code PIPELINE_UNREADABLE, PIPELINE_SYNTAX or PIPELINE_INVALID) carrying every diagnostic.
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
  const diagnostics = await diagnoseTree(parsed, (each) => diagnosePipeline(each, options));
  if (diagnostics.some((diagnostic) => diagnostic.severity === "error")) {
    throw new PipelineLoadError("PIPELINE_INVALID", parsed.displayPath, diagnostics);
  }
  return toLoadedPipeline(parsed);
}
