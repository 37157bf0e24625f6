import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parse } from "yaml";
import type { ExecutableSpec } from "./executable-pipeline.js";

/** The pipeline as a run needs it: where it came from, its text and hash, and the spec. */
export interface PipelineForRun {
  /** Absolute path of the file, or "<inline>". */
  path: string;
  source: string;
  /** sha256 of `source` (resume refuses a changed pipeline). */
  hash: string;
  spec: ExecutableSpec & { inputs?: Record<string, { default?: unknown } | undefined> };
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
 * pipeline object) into a PipelineForRun.
 *
 * Local stand-in until the pipeline loader (`loadPipeline`/`validatePipeline`) is exported:
 * it parses YAML but does not validate or report positions.
 * @example const pipeline = await loadForRun("examples/storyboard.yaml");
 */
export async function loadForRun(pipeline: string | object): Promise<PipelineForRun> {
  if (typeof pipeline === "string") {
    const path = resolve(pipeline);
    const source = await readFile(path, "utf8");
    const spec = parse(source) as PipelineForRun["spec"];
    if (!spec || typeof spec !== "object" || !Array.isArray(spec.steps)) {
      throw new TypeError(`${path} is not a pipeline: expected a mapping with a \`steps\` list`);
    }
    return { path, source, hash: sha256(source), spec };
  }
  if (isPipelineForRun(pipeline)) return pipeline;
  const spec = pipeline as PipelineForRun["spec"];
  if (!Array.isArray(spec.steps)) throw new TypeError("A pipeline object needs a `steps` list");
  // JSON is YAML, and much faster to write than YAML for big generated pipelines.
  const source = `${JSON.stringify(spec, null, 1)}\n`;
  return { path: "<inline>", source, hash: sha256(source), spec };
}

/**
 * Applies declared input defaults under the given inputs (stand-in for `resolveInputs`).
 * @example inputsWithDefaults(pipeline, { scenes: 2 })
 */
export function inputsWithDefaults(
  pipeline: PipelineForRun,
  given: Record<string, unknown>,
): Record<string, unknown> {
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
