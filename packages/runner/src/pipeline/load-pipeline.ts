import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { isMap, LineCounter, parseAllDocuments, stringify } from "yaml";
import { diagnosticAt } from "./diagnostic-at.js";
import { PipelineLoadError } from "./errors/pipeline-load-error.js";
import type { PipelineSpec } from "./pipeline-spec.js";
import { SourceMap } from "./source-map.js";
import { yamlSyntaxProblems } from "./yaml-syntax-problems.js";

/** Largest pipeline file accepted (bytes). */
export const MAX_PIPELINE_BYTES = 1024 * 1024;
/** Deepest nesting of mappings and lists accepted (checks recurse; pipelines stay shallow). */
const MAX_NESTING_DEPTH = 64;

/** How deeply lists and mappings nest in a value, counted without recursion. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_NESTING_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Most YAML aliases expanded (guards against alias bombs). */
const MAX_ALIAS_COUNT = 200;

/**
 * A pipeline file read and validated, with positions for messages.
 *
 * @example
 * ```ts
 * const pipeline = await loadPipeline("examples/storyboard.yaml");
 * pipeline.positionOf(["steps", 1, "video", "prompt"]); // { line: 21, column: 15 }
 * ```
 */
export interface LoadedPipeline {
  /** Absolute path, or "<inline>". */
  path: string;
  /** The YAML text. */
  source: string;
  /** sha256 (hex) of the source; resume compares it. */
  hash: string;
  /** Typed, validated object; steps in file order. */
  spec: PipelineSpec;
  /** 1-based position of the node at a path, for runtime errors too. */
  positionOf(path: readonly (string | number)[]): { line: number; column: number };
}

/** What `loadPipeline` and `validatePipeline` accept: a file path or inline text. */
export type PipelineSource = string | { source: string; path: string };

/** A parsed but not yet validated pipeline (internal to validation). */
export interface ParsedPipeline {
  /** Absolute path, or "<inline>". */
  path: string;
  /** The path as the caller wrote it (used in diagnostics). */
  displayPath: string;
  source: string;
  hash: string;
  data: unknown;
  sourceMap: SourceMap;
}

async function readSource(input: PipelineSource): Promise<{ path: string; source: string }> {
  if (typeof input !== "string") {
    const path = input.path;
    if (Buffer.byteLength(input.source) > MAX_PIPELINE_BYTES) {
      throw new PipelineLoadError("pipeline_unreadable", path, [
        diagnosticAt(
          path,
          "pipeline_too_large",
          `pipeline text is larger than ${MAX_PIPELINE_BYTES} bytes`,
        ),
      ]);
    }
    checkText(path, Buffer.from(input.source, "utf8"));
    return { path, source: input.source };
  }
  const path = input;
  let bytes: Buffer;
  try {
    const info = await stat(resolve(path));
    if (!info.isFile()) throw Object.assign(new Error("not a regular file"), { code: "EISDIR" });
    if (info.size > MAX_PIPELINE_BYTES) {
      throw new PipelineLoadError("pipeline_unreadable", path, [
        diagnosticAt(
          path,
          "pipeline_too_large",
          `pipeline file is ${info.size} bytes; the limit is ${MAX_PIPELINE_BYTES} bytes`,
        ),
      ]);
    }
    bytes = await readFile(resolve(path));
  } catch (error) {
    if (PipelineLoadError.isInstance(error)) throw error;
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    const reason = missing ? `no such file (${resolve(path)})` : (error as Error).message;
    throw new PipelineLoadError("pipeline_unreadable", path, [
      diagnosticAt(
        path,
        "pipeline_unreadable",
        `cannot read pipeline: ${reason}`,
        1,
        1,
        undefined,
        missing
          ? "check the path (a relative one is read from the current directory); `reelsmith init DIR` writes a new pipeline"
          : undefined,
      ),
    ]);
  }
  checkText(path, bytes);
  return { path, source: bytes.toString("utf8").replace(/^\uFEFF/, "") };
}

/** Refuse binary data: NUL bytes, invalid UTF-8, or many control characters. */
function checkText(path: string, bytes: Buffer): void {
  const nul = bytes.indexOf(0);
  let problem: string | undefined;
  if (nul !== -1) problem = `binary data (a NUL byte at offset ${nul})`;
  else {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      problem = "bytes that are not UTF-8 text";
    }
  }
  if (!problem) {
    let control = 0;
    // Indexed: a Buffer's iterator makes an object per byte (a 200-step text is 15,000).
    for (let at = 0; at < bytes.length; at++) {
      const byte = bytes[at] as number;
      if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 13) control += 1;
    }
    if (control > 0 && control * 100 > bytes.length) problem = `${control} control characters`;
  }
  if (problem) {
    throw new PipelineLoadError("pipeline_unreadable", path, [
      diagnosticAt(
        path,
        "pipeline_not_text",
        `not a YAML pipeline: the file contains ${problem}`,
        1,
        1,
        undefined,
        "a pipeline is a UTF-8 YAML text file",
      ),
    ]);
  }
}

/**
 * Read and parse a pipeline without validating it. Throws PipelineLoadError for unreadable
 * files, YAML syntax errors (all of them, with positions) and non-mapping documents.
 */
export async function parsePipeline(input: PipelineSource): Promise<ParsedPipeline> {
  // Diagnostics name the file as the caller gave it; the loaded pipeline keeps it absolute.
  const { path: displayPath, source } = await readSource(input);
  const path = displayPath;
  if (typeof input !== "string" && objectSources.has(input)) return parseObjectSource(source);
  return parseYamlSource(path, displayPath, source);
}

function parseYamlSource(path: string, displayPath: string, source: string): ParsedPipeline {
  const lines = new LineCounter();
  const parse = () =>
    parseAllDocuments(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  let documents: ReturnType<typeof parse>;
  try {
    documents = parse();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new PipelineLoadError("pipeline_syntax", displayPath, [
      diagnosticAt(
        displayPath,
        "yaml_syntax",
        "YAML: the document is nested too deeply (thousands of levels)",
      ),
    ]);
  }
  const list = Array.isArray(documents) ? documents : [];
  const first = list[0];
  const lineOf = (offset: number) => lines.linePos(offset);
  const sourceLine = (line: number) => source.split(/\r?\n/)[line - 1];
  const problems = yamlSyntaxProblems(path, source, list, lines);
  if (problems.length > 0) throw new PipelineLoadError("pipeline_syntax", path, problems);
  if (list.length > 1) {
    const { line, col } = lineOf(list[1]?.range[0] ?? 0);
    throw new PipelineLoadError("pipeline_syntax", path, [
      diagnosticAt(
        path,
        "yaml_multiple_documents",
        "a pipeline file holds one YAML document, found several",
        line,
        col,
        sourceLine(line),
      ),
    ]);
  }
  if (!first || !isMap(first.contents)) {
    const found =
      !first || first.contents === null
        ? "an empty document"
        : Array.isArray(first.toJS())
          ? "a list"
          : "a single value";
    const offset = first?.contents?.range?.[0] ?? 0;
    const { line, col } = lineOf(offset);
    throw new PipelineLoadError("pipeline_syntax", path, [
      diagnosticAt(
        path,
        "pipeline_not_mapping",
        `the top level of a pipeline must be a mapping (name:, steps:, …), found ${found}`,
        line,
        col,
        sourceLine(line),
      ),
    ]);
  }
  let data: unknown;
  try {
    data = first.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message =
      error instanceof RangeError
        ? "the document is nested too deeply (thousands of levels)"
        : (error as Error).message;
    throw new PipelineLoadError("pipeline_syntax", path, [
      diagnosticAt(path, "yaml_aliases", `YAML: ${message}`),
    ]);
  }
  if (nestingDepth(data) > MAX_NESTING_DEPTH) {
    throw new PipelineLoadError("pipeline_syntax", path, [
      diagnosticAt(
        path,
        "pipeline_too_deep",
        `the document is nested deeper than ${MAX_NESTING_DEPTH} levels`,
      ),
    ]);
  }
  const hash = createHash("sha256").update(source).digest("hex");
  const absolute = path === "<inline>" ? path : resolve(path);
  return {
    path: absolute,
    displayPath,
    source,
    hash,
    data,
    sourceMap: new SourceMap(first, lines, source),
  };
}

/**
 * Turn a parsed pipeline whose data passed validation into a LoadedPipeline.
 */
export function toLoadedPipeline(parsed: ParsedPipeline): LoadedPipeline {
  return {
    path: parsed.path,
    source: parsed.source,
    hash: parsed.hash,
    spec: parsed.data as PipelineSpec,
    positionOf: (path) => {
      const { line, column } = parsed.sourceMap.position(path);
      return { line, column };
    },
  };
}

/** Sources made by `objectSource`: JSON.stringify output, so JSON without duplicate keys. */
const objectSources = new WeakSet<object>();

/**
 * The pipeline text of a plain object (JSON, which is YAML) as an inline source. Its data is
 * read with JSON.parse; the YAML document that maps paths to positions is only built when
 * a position is asked for (a diagnostic): most runs of a valid pipeline never need it, and
 * parsing 200 steps of YAML cost more than running them against a fast service.
 *
 * @example
 * ```ts
 * const pipeline = await loadPipeline(objectSource({ name: "x", steps: [...] }));
 * ```
 */
export function objectSource(pipeline: object): { source: string; path: string } {
  const input = { source: `${JSON.stringify(pipeline, null, 1)}\n`, path: "<inline>" };
  objectSources.add(input);
  return input;
}

function parseObjectSource(source: string): ParsedPipeline {
  const data = JSON.parse(source) as unknown;
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    // Reported with positions by the YAML path.
    return parseYamlSource("<inline>", "<inline>", source);
  }
  let sourceMap: SourceMap | undefined;
  return {
    path: "<inline>",
    displayPath: "<inline>",
    source,
    hash: createHash("sha256").update(source).digest("hex"),
    data,
    get sourceMap() {
      sourceMap ??= parseYamlSource("<inline>", "<inline>", source).sourceMap;
      return sourceMap;
    },
  };
}

/**
 * YAML text for a pipeline given as a plain object (so it can be loaded with positions).
 *
 * @example
 * ```ts
 * const pipeline = await loadPipeline({ source: pipelineObjectToSource({ name: "x", steps: [...] }), path: "<inline>" });
 * ```
 */
export function pipelineObjectToSource(pipeline: object): string {
  return stringify(pipeline, { aliasDuplicateObjects: false, lineWidth: 0 });
}
