import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { parse } from "yaml";
// Not the pipeline barrel: it carries the schema builders (TypeBox, hundreds of modules) that a
// run never calls.
import { type LoadedPipeline, objectSource } from "../pipeline/load-pipeline.js";
import { resolveInputs } from "../pipeline/resolve-inputs.js";
import { stepPositions } from "../pipeline/step-positions.js";
import { loadPipeline, type ValidateOptions } from "../pipeline/validate-pipeline.js";
import type { ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";
import type { ExecutableSpec } from "./executable-pipeline.js";

/** The pipeline as a run needs it: where it came from, its text and hash, and the spec. */
export interface PipelineForRun {
  /** Absolute path of the file, or "<inline>". */
  path: string;
  source: string;
  /** sha256 of `source` (resume refuses a changed pipeline). */
  hash: string;
  spec: ExecutableSpec & { inputs?: Record<string, { default?: unknown } | undefined> };
  /** 1-based position of a node (a validated pipeline has it), for run-time errors. */
  positionOf?(path: readonly (string | number)[]): { line: number; column: number };
}

/**
 * Where a step is written, as `file:line:column` (the file relative to the working directory
 * when inside it), or undefined for a pipeline given as an object.
 * @example stepLocation(pipeline, "final") // "examples/storyboard/pipeline.yaml:92:5"
 */
export function stepLocation(pipeline: PipelineForRun, step: string): string | undefined {
  if (pipeline.path === "<inline>") return undefined;
  // The report places the step with the same function, so both show one file:line:column.
  const position = stepPositions(pipeline.source).get(step);
  if (!position) return undefined;
  const { line, column } = position;
  const shown = relative(process.cwd(), pipeline.path);
  const file = shown && !shown.startsWith("..") && !isAbsolute(shown) ? shown : pipeline.path;
  return `${file}:${line}:${column}`;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function isPipelineForRun(value: object): value is PipelineForRun {
  const v = value as Partial<PipelineForRun>;
  return typeof v.source === "string" && typeof v.hash === "string" && typeof v.spec === "object";
}

/**
 * Normalises what `runPipeline` accepts (a file path, a loaded pipeline, or a plain
 * pipeline object) into a PipelineForRun. With `validate` (the default for the built-in
 * step kinds) it goes through `loadPipeline`: every problem is reported, with positions,
 * before anything is sent. Custom step kinds skip the schema (it only knows the built-ins).
 * @example const pipeline = await loadForRun("examples/storyboard.yaml", { validate: true });
 */
export async function loadForRun(
  pipeline: string | object,
  options: {
    validate: boolean;
    /** The other model catalogs, by profile section (`image_models`, …). */
    catalogs?: ModelCatalogs;
    /** The step kinds it may use (default: the built-in ones), checked with their own schemas. */
    stepKinds?: readonly StepKindSpec<never>[];
    /** The model check's given inputs (see `ValidateOptions.models`). */
    models?: ValidateOptions["models"];
  },
): Promise<PipelineForRun> {
  if (typeof pipeline !== "string" && isPipelineForRun(pipeline)) return pipeline;
  // JSON is YAML, and much faster to write and read than YAML for big generated pipelines.
  const input = typeof pipeline === "string" ? resolve(pipeline) : objectSource(pipeline);
  if (options.validate) {
    const loaded = await loadPipeline(input, {
      ...(options.catalogs ? { catalogs: options.catalogs } : {}),
      ...(options.stepKinds ? { stepKinds: options.stepKinds } : {}),
      ...(options.models !== undefined ? { models: options.models } : {}),
    });
    return loaded as unknown as PipelineForRun;
  }
  const path = typeof input === "string" ? input : input.path;
  const source = typeof input === "string" ? await readFile(input, "utf8") : input.source;
  const spec = (
    typeof input === "string" ? parse(source) : JSON.parse(source)
  ) as PipelineForRun["spec"];
  if (!spec || typeof spec !== "object" || !Array.isArray(spec.steps)) {
    throw new TypeError(`${path} is not a pipeline: expected a mapping with a \`steps\` list`);
  }
  return { path, source, hash: sha256(source), spec };
}

/**
 * The run's inputs: `resolveInputs` (defaults, coercion, file inputs) for a validated
 * pipeline; defaults under the given values otherwise.
 * @example runInputs(pipeline, { scenes: "2" }, true) // { scenes: 2, story: "…" }
 */
export function runInputs(
  pipeline: PipelineForRun,
  given: Record<string, unknown>,
  validated: boolean,
): Record<string, unknown> {
  if (validated) return resolveInputs(pipeline as unknown as LoadedPipeline, given);
  const inputs: Record<string, unknown> = {};
  for (const [name, declaration] of Object.entries(pipeline.spec.inputs ?? {})) {
    if (declaration && "default" in declaration) inputs[name] = declaration.default;
  }
  for (const [name, value] of Object.entries(given)) {
    if (name !== "__proto__" && name !== "constructor" && name !== "prototype")
      inputs[name] = value;
  }
  return inputs;
}
