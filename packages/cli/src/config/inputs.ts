import { readFile } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../errors/cli-error.js";

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Commander collector for a repeatable `--input key=value`.
 *
 * @example
 * program.option("--input <key=value>", "an input", collectInput, []);
 */
export function collectInput(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Parse `key=value` pairs (the value keeps any further `=`); values stay strings, the runner
 * coerces them to the declared input types.
 *
 * @example
 * parseInputPairs(["scenes=3", "story=a=b"]); // { scenes: "3", story: "a=b" }
 */
export function parseInputPairs(pairs: readonly string[]): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const key = at < 0 ? "" : pair.slice(0, at).trim();
    if (!key) {
      throw new UsageError(`--input expects key=value, got '${pair}'`, {
        code: "invalid_input_flag",
        hint: "for example --input scenes=4",
      });
    }
    checkKey(key, "--input");
    inputs[key] = pair.slice(at + 1);
  }
  return inputs;
}

function checkKey(key: string, where: string) {
  if (FORBIDDEN_KEYS.has(key)) {
    throw new UsageError(`${where}: '${key}' is not allowed as an input name`, {
      code: "forbidden_input_name",
    });
  }
}

/**
 * Read a JSON or YAML file of inputs (an object at the top level).
 *
 * @example
 * const inputs = await readInputsFile("inputs.yaml", process.cwd());
 */
export async function readInputsFile(file: string, cwd: string): Promise<Record<string, unknown>> {
  const absolute = path.resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? `no such file (${absolute})`
        : code === "EISDIR"
          ? `it is a directory (${absolute})`
          : (error as Error).message;
    throw new UsageError(`cannot read the inputs file ${file}: ${reason}`, {
      code: "inputs_file_unreadable",
      hint: "pass --inputs a JSON or YAML file, its path relative to the current directory",
      cause: error,
    });
  }
  const json = /\.json$/i.test(file);
  let value: unknown;
  try {
    value = json ? JSON.parse(text) : (await import("yaml")).parse(text); // loaded on use: most runs have no inputs file
  } catch (error) {
    throw await syntaxError(file, text, json, error);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`the inputs file ${file} must hold an object of input names to values`, {
      code: "inputs_file_invalid",
    });
  }
  const inputs: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    checkKey(key, file);
    inputs[key] = entry;
  }
  return inputs;
}

/**
 * An inputs file that does not parse, at its `file:line:column` with the parser's one line
 * (JSON's own error has no line: YAML, a superset of JSON, finds the place).
 */
async function syntaxError(
  file: string,
  text: string,
  json: boolean,
  error: unknown,
): Promise<UsageError> {
  const { parseDocument } = await import("yaml");
  const problem = parseDocument(text).errors[0];
  const offset = /at position (\d+)/.exec((error as Error).message)?.[1];
  const at =
    problem?.linePos?.[0] ?? (offset === undefined ? undefined : lineColumn(text, Number(offset)));
  const where = at ? `${file}:${at.line}:${at.col}` : file;
  const what = (problem ?? (error as Error)).message
    .split("\n")[0]
    ?.replace(/ at line \d+, column \d+:?$/, "");
  return new UsageError(
    `${where}: the inputs file is not valid ${json ? "JSON" : "YAML"}: ${what}`,
    {
      code: "inputs_file_invalid",
      hint: 'an inputs file holds one object of input names to values, such as { "scenes": 4 }',
      cause: error,
    },
  );
}

/** The 1-based line and column of a character offset of `text`. */
function lineColumn(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, col: (before[before.length - 1]?.length ?? 0) + 1 };
}

/**
 * The inputs of a run: the file's, overridden by `--input` pairs.
 *
 * @example
 * const inputs = await gatherInputs({ input: ["scenes=2"], inputs: "base.json" }, cwd);
 */
export async function gatherInputs(
  options: { input?: string[]; inputs?: string },
  cwd: string,
): Promise<Record<string, unknown>> {
  const fromFile = options.inputs ? await readInputsFile(options.inputs, cwd) : {};
  return { ...fromFile, ...parseInputPairs(options.input ?? []) };
}
