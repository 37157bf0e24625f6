import { statSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import { kindsByName } from "../steps/registry.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import { bodyPath, createCheckModel, isObject } from "./check/check-model.js";
import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";
import { PipelineLoadError } from "./errors/pipeline-load-error.js";
import { type ParsedPipeline, parsePipeline } from "./load-pipeline.js";

/**
 * How deep sub-pipelines may nest (a pipeline's tool runs a pipeline whose tool runs …).
 * `validate` refuses a deeper chain of literal `pipeline:` files; a run refuses a deeper
 * chain it meets at run time (paths that come from expressions) with SubPipelineDepthError.
 */
export const MAX_SUB_PIPELINE_DEPTH = 8;

/** One literal pipeline file a step names (a chat tool's `pipeline:`), with its document path. */
export interface SubPipelineReference {
  value: string;
  path: (string | number)[];
}

/**
 * The pipeline files a pipeline's steps name literally (no `${{ }}`), as their kinds say
 * (files of format `pipeline`), in their bodies or in `defaults`, each once.
 *
 * @example
 * subPipelineReferences({ steps: [{ id: "a", chat: { tools: [{ name: "t", pipeline: "t.yaml" }] } }] });
 * // [{ value: "t.yaml", path: ["steps", 0, "chat", "tools", 0, "pipeline"] }]
 */
export function subPipelineReferences(
  data: unknown,
  kinds: ReadonlyMap<string, AnyStepKind> = kindsByName(),
): SubPipelineReference[] {
  if (!isObject(data)) return [];
  const model = createCheckModel(data, { kinds, baseDir: undefined });
  const found = new Map<string, SubPipelineReference>();
  for (const step of model.steps) {
    if (!step.kind || !step.merged) continue;
    let uses: ReturnType<typeof step.kind.files> = [];
    try {
      uses = step.kind.files(step.merged as never);
    } catch {
      // a malformed body the schema reports
    }
    for (const use of uses) {
      if (use.format !== "pipeline" || use.file === "" || use.file.includes("${{")) continue;
      const path = bodyPath(step, use.path, model.defaults);
      found.set(JSON.stringify(path), { value: use.file, path });
    }
  }
  return [...found.values()];
}

/** How a file is named in a cycle or chain: relative to the first file's folder. */
function shortName(file: string, root: string): string {
  const shown = relative(dirname(root), file);
  if (shown.startsWith("../..")) return file;
  return shown === "" ? basename(file) : shown;
}

interface TreeState {
  /** Files already diagnosed, with how many errors they (and their own sub-pipelines) have. */
  done: Map<string, { errors: Diagnostic[] }>;
  diagnose(parsed: ParsedPipeline): Diagnostic[];
}

/**
 * Diagnostics of a pipeline and, recursively, of every sub-pipeline its chat tools name
 * literally: each file's problems against that file (its own file:line:column), plus one
 * problem at the naming `pipeline:` entry for a cycle (A→A, A→B→A), a chain deeper than
 * MAX_SUB_PIPELINE_DEPTH, or a sub-file that is not a valid pipeline. A missing file is
 * reported by the pipeline's own checks (FILE_NOT_FOUND).
 *
 * @example
 * const diagnostics = await diagnoseTree(parsed, (p) => diagnosePipeline(p, checker, options));
 */
export async function diagnoseTree(
  parsed: ParsedPipeline,
  diagnose: (parsed: ParsedPipeline) => Diagnostic[],
): Promise<Diagnostic[]> {
  const state: TreeState = { done: new Map(), diagnose };
  return visit(parsed, [parsed.path], state);
}

async function visit(
  parsed: ParsedPipeline,
  chain: string[],
  state: TreeState,
): Promise<Diagnostic[]> {
  const own = state.diagnose(parsed);
  const all = [...own];
  const inSubFiles: Diagnostic[] = [];
  const errorsOf = (list: Diagnostic[]) => list.filter((d) => d.severity === "error");
  state.done.set(parsed.path, { errors: errorsOf(own) });
  if (parsed.path === "<inline>") return all;
  const root = chain[0] ?? parsed.path;
  const at = (
    reference: SubPipelineReference,
    code: string,
    message: string,
    hint?: string,
  ): Diagnostic => {
    const { line, column } = parsed.sourceMap.position(reference.path);
    return {
      severity: "error",
      code,
      message,
      file: parsed.displayPath,
      line,
      column,
      sourceLine: parsed.sourceMap.lineText(line),
      ...(hint ? { hint } : {}),
    };
  };
  for (const reference of subPipelineReferences(parsed.data)) {
    const file = isAbsolute(reference.value)
      ? reference.value
      : resolve(dirname(parsed.path), reference.value);
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      isFile = false;
    }
    if (!isFile) continue; // FILE_NOT_FOUND / NOT_A_FILE come from the pipeline's own checks
    const cycleStart = chain.indexOf(file);
    if (cycleStart !== -1) {
      const names = [...chain.slice(cycleStart), file].map((entry) => shortName(entry, root));
      all.push(
        at(
          reference,
          "sub_pipeline_cycle",
          `sub-pipeline cycle: ${names.join(" → ")}`,
          "a tool's pipeline cannot run, directly or through others, the pipeline that calls it",
        ),
      );
      continue;
    }
    if (chain.length > MAX_SUB_PIPELINE_DEPTH) {
      all.push(
        at(
          reference,
          "sub_pipeline_too_deep",
          `sub-pipelines nest deeper than ${MAX_SUB_PIPELINE_DEPTH} levels: ${[...chain, file].map((entry) => shortName(entry, root)).join(" → ")}`,
        ),
      );
      continue;
    }
    let errors: Diagnostic[];
    const previous = state.done.get(file);
    if (previous) errors = previous.errors;
    else {
      let sub: Diagnostic[];
      try {
        sub = await visit(await parsePipeline(file), [...chain, file], state);
      } catch (error) {
        if (!PipelineLoadError.isInstance(error)) throw error;
        sub = error.diagnostics;
        state.done.set(file, { errors: errorsOf(sub) });
      }
      inSubFiles.push(...sub);
      errors = errorsOf(sub);
      state.done.set(file, { errors });
    }
    // Name the root cause, not the chain of files that lead to it.
    const first = errors.find((error) => error.code !== "sub_pipeline_invalid") ?? errors[0];
    if (first) {
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
      all.push(
        at(
          reference,
          "sub_pipeline_invalid",
          `tool pipeline ${reference.value} is not a valid pipeline: ${shortName(resolve(first.file), root)}:${first.line}:${first.column}: ${first.message}${more}`,
          "its problems are listed against its own file",
        ),
      );
    }
  }
  // This file's problems in position order, then each sub-file's own.
  return [...sortDiagnostics(all), ...inSubFiles];
}
