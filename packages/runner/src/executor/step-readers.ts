import { parse } from "yaml";
import { collectReferencePaths } from "../expressions/references.js";
import { conditionAsTemplate } from "../expressions/template.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import { kindOf } from "../steps/registry.js";
import type { AnyStepKind, OutputReader } from "../steps/step-kind.js";

/**
 * Who reads each step's outputs, from the pipeline as written: every step field and every
 * pipeline output whose expressions name `steps.<id>`. A kind asks it (`readersOf`) to know
 * what becomes of what it makes (an ffmpeg output only another ffmpeg pass reads is written
 * losslessly).
 *
 * @example
 * const readersOf = stepReaders(spec, kinds);
 * readersOf("joined"); // [{ step: "mixed", kind: "ffmpeg", body: {...}, field: ["mix"], output: "file" }]
 */
export function stepReaders(
  spec: Pick<PipelineSpec, "steps" | "outputs">,
  kinds: ReadonlyMap<string, AnyStepKind>,
): (stepId: string) => readonly OutputReader[] {
  const readers = new Map<string, OutputReader[]>();
  const add = (value: unknown, reader: Omit<OutputReader, "output">) => {
    for (const reference of collectReferencePaths(value)) {
      const [id, outputs, ...rest] = reference.path;
      if (reference.context !== "steps" || typeof id !== "string" || id === reader.step) continue;
      // `outputs.file`, `outputs.*.file`, `outputs[0].file`: the field after any item.
      const field =
        outputs === "outputs"
          ? rest.find((part) => typeof part === "string" && part !== "*")
          : undefined;
      const list = readers.get(id) ?? [];
      list.push({ ...reader, ...(typeof field === "string" ? { output: field } : {}) });
      readers.set(id, list);
    }
  };
  for (const step of spec.steps) {
    const kind = kindOf(step as Record<string, unknown>, kinds);
    const body = kind ? step[kind.kind] : undefined;
    for (const [key, value] of Object.entries(step)) {
      if (key === "id" || key === "name") continue;
      const at = { step: step.id, ...(kind ? { kind: kind.kind } : {}) };
      if (kind && key === kind.kind && body && typeof body === "object" && !Array.isArray(body)) {
        for (const [field, inner] of Object.entries(body as Record<string, unknown>))
          add(inner, { ...at, body: body as Record<string, unknown>, field: [field] });
      } else
        add(key === "if" && typeof value === "string" ? conditionAsTemplate(value) : value, {
          ...at,
          field: [key],
        });
    }
  }
  for (const [name, value] of Object.entries(spec.outputs ?? {}))
    add(value, { field: ["outputs", name] });
  return (stepId) => readers.get(stepId) ?? [];
}

/**
 * The steps, outputs and maximum of a pipeline's text as written (a stored run's, already
 * validated when it was submitted): what `stepReaders` reads, without loading the pipeline
 * again.
 * @example stepReaders(writtenSpec(run.pipelineSource), kinds)("joined");
 */
export function writtenSpec(
  source: string,
): Pick<PipelineSpec, "steps" | "outputs" | "max_credits"> {
  const spec = parse(source) as Partial<PipelineSpec> | null;
  if (!spec || typeof spec !== "object" || !Array.isArray(spec.steps))
    throw new TypeError(
      "the stored pipeline is not a pipeline: expected a mapping with a `steps` list",
    );
  return {
    steps: spec.steps,
    ...(spec.outputs ? { outputs: spec.outputs } : {}),
    ...(typeof spec.max_credits === "number" ? { max_credits: spec.max_credits } : {}),
  };
}
