import { isAbsolute, relative, resolve } from "node:path";
// Not the pipeline barrel: it carries the schema builders (TypeBox, hundreds of modules) that a
// run never calls.
import {
  type LoadedPipeline,
  objectSource,
  parsePipeline,
  toLoadedPipeline,
} from "../pipeline/load-pipeline.js";
import { resolveInputs } from "../pipeline/resolve-inputs.js";
import { stepPositions } from "../pipeline/step-positions.js";
import { loadPipeline, type ValidateOptions } from "../pipeline/validate-pipeline.js";
import type { ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";

/**
 * Where a step is written, as `file:line:column` (the file relative to the working directory
 * when inside it), or undefined for a pipeline given as an object. With `field`, where that
 * field of the step is written (the step's own place when it has no such field).
 * @example stepLocation(pipeline, "final") // "examples/storyboard/pipeline.yaml:92:5"
 * @example stepLocation(pipeline, "clips", "for_each") // "examples/storyboard/pipeline.yaml:61:5"
 */
export function stepLocation(
  pipeline: LoadedPipeline,
  step: string,
  field?: string,
): string | undefined {
  if (pipeline.path === "<inline>") return undefined;
  // The report places the step with the same function, so both show one file:line:column.
  const position = stepPositions(pipeline.source).get(step);
  if (!position) return undefined;
  // A field of the step (its `for_each`) where it is written, else the step's own line.
  const index = pipeline.spec.steps.findIndex((candidate) => candidate.id === step);
  const { line, column } =
    field !== undefined && index >= 0 && Object.hasOwn(pipeline.spec.steps[index] ?? {}, field)
      ? pipeline.positionOf(["steps", index, field])
      : position;
  const shown = relative(process.cwd(), pipeline.path);
  const file = shown && !shown.startsWith("..") && !isAbsolute(shown) ? shown : pipeline.path;
  return `${file}:${line}:${column}`;
}

function isLoadedPipeline(value: object): value is LoadedPipeline {
  const v = value as Partial<LoadedPipeline>;
  return (
    typeof v.source === "string" &&
    typeof v.hash === "string" &&
    typeof v.spec === "object" &&
    typeof v.positionOf === "function"
  );
}

/**
 * Normalises what `runPipeline` accepts (a file path, a loaded pipeline, or a plain
 * pipeline object) into a LoadedPipeline. With `validate` (the default for the built-in
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
): Promise<LoadedPipeline> {
  if (typeof pipeline !== "string" && isLoadedPipeline(pipeline)) return pipeline;
  // JSON is YAML, and much faster to write and read than YAML for big generated pipelines.
  const input = typeof pipeline === "string" ? resolve(pipeline) : objectSource(pipeline);
  if (options.validate) {
    const loaded = await loadPipeline(input, {
      ...(options.catalogs ? { catalogs: options.catalogs } : {}),
      ...(options.stepKinds ? { stepKinds: options.stepKinds } : {}),
      ...(options.models !== undefined ? { models: options.models } : {}),
    });
    return loaded;
  }
  // Not validated (the take checks its text later): parsed with its source map, so that
  // run-time errors still have positions.
  const parsed = await parsePipeline(input);
  const data = parsed.data as { steps?: unknown };
  if (!Array.isArray(data.steps)) {
    throw new TypeError(
      `${parsed.displayPath} is not a pipeline: expected a mapping with a \`steps\` list`,
    );
  }
  return toLoadedPipeline(parsed);
}

/**
 * The run's inputs: `resolveInputs` (defaults, coercion, file inputs) for a validated
 * pipeline; defaults under the given values otherwise.
 * @example runInputs(pipeline, { scenes: "2" }, true) // { scenes: 2, story: "…" }
 */
export function runInputs(
  pipeline: LoadedPipeline,
  given: Record<string, unknown>,
  validated: boolean,
): Record<string, unknown> {
  if (validated) return resolveInputs(pipeline, given);
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
