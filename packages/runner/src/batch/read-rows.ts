import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { isMap, isSeq, LineCounter, parseDocument } from "yaml";
import { RunnerError } from "../errors/runner-error.js";
import type { BatchRowProblem } from "./batch-rows-error.js";

/** One row of a batch's inputs file: its id, where it is written and its fields. */
export interface BatchRow {
  /** The row's `id` field, else a hash of its fields: the same row has the same id in every run. */
  id: string;
  /** 1-based line of the row in its file. */
  line: number;
  /** The row's fields without `id`: the pipeline's inputs as written (CSV cells are text). */
  fields: Record<string, unknown>;
}

/** The rows of a file and what is wrong with any of them (nothing is thrown for a bad row). */
export interface ReadRows {
  rows: BatchRow[];
  problems: BatchRowProblem[];
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Keys sorted at every depth, so `{a, b}` and `{b, a}` are one row. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * A row's id from its fields: `r-` and 12 hex digits of the sha256 of its fields, keys sorted.
 * @example contentId({ story: "a boat", scenes: "1" }) // "r-3f0c…"
 */
export function contentId(fields: Record<string, unknown>): string {
  const hash = createHash("sha256")
    .update(JSON.stringify(canonical(fields)))
    .digest("hex");
  return `r-${hash.slice(0, 12)}`;
}

/** The row of a record at `line`, its id taken out of its fields, or the problem with it. */
function toRow(
  file: string,
  line: number,
  record: unknown,
): { row: BatchRow } | { problem: BatchRowProblem } {
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    return { problem: { file, line, message: "a row is an object of input names and values" } };
  }
  const fields: Record<string, unknown> = {};
  let given: unknown;
  for (const [key, value] of Object.entries(record)) {
    if (key === "id") given = value;
    // An empty cell is a field left out: the input's default applies.
    else if (value !== "" && value !== undefined) fields[key] = value;
  }
  if (given === undefined || given === "") return { row: { id: contentId(fields), line, fields } };
  const id = String(given);
  if (!ID_PATTERN.test(id)) {
    return {
      problem: {
        file,
        line,
        field: "id",
        message: `${JSON.stringify(id)} is not a usable id (letters, digits, '.', '_' and '-', at most 64, starting with a letter or digit)`,
      },
    };
  }
  return { row: { id, line, fields } };
}

function csvRows(file: string, text: string): ReadRows {
  const rows: BatchRow[] = [];
  const problems: BatchRowProblem[] = [];
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(text, {
      info: true,
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    }) as unknown as typeof records;
  } catch (error) {
    const where = error as { lines?: number; message?: string };
    problems.push({
      file,
      line: typeof where.lines === "number" ? where.lines : 1,
      message: `not readable as CSV: ${where.message ?? String(error)}`,
    });
    return { rows, problems };
  }
  const [head, ...body] = records;
  if (!head) return { rows, problems };
  const header = head.record;
  // csv-parse tells where a record ends; a row is named by the line it starts on.
  const lines = text.split("\n");
  let previousEnd = head.info.lines;
  for (const { record, info } of body) {
    let line = previousEnd + 1;
    while (line < info.lines && (lines[line - 1] ?? "").trim() === "") line += 1;
    previousEnd = info.lines;
    if (record.length !== header.length) {
      problems.push({
        file,
        line,
        message: `${record.length} fields where the header line names ${header.length} (${header.join(", ")}); quote a value that holds a comma`,
      });
      continue;
    }
    const result = toRow(
      file,
      line,
      Object.fromEntries(header.map((name, i) => [name, record[i]])),
    );
    if ("row" in result) rows.push(result.row);
    else problems.push(result.problem);
  }
  return { rows, problems };
}

function jsonlRows(file: string, text: string): ReadRows {
  const rows: BatchRow[] = [];
  const problems: BatchRowProblem[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    const source = raw.trim();
    if (source === "") return;
    let record: unknown;
    try {
      record = JSON.parse(source);
    } catch (error) {
      problems.push({ file, line, message: `not a JSON object: ${(error as Error).message}` });
      return;
    }
    const result = toRow(file, line, record);
    if ("row" in result) rows.push(result.row);
    else problems.push(result.problem);
  });
  return { rows, problems };
}

function yamlRows(file: string, text: string): ReadRows {
  const rows: BatchRow[] = [];
  const problems: BatchRowProblem[] = [];
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const [first] = document.errors;
  if (first) {
    const line = first.linePos?.[0]?.line ?? 1;
    problems.push({ file, line, message: `not readable as YAML: ${first.message.split("\n")[0]}` });
    return { rows, problems };
  }
  if (!isSeq(document.contents)) {
    problems.push({
      file,
      line: 1,
      message: "a YAML inputs file is a list of rows (- name: value)",
    });
    return { rows, problems };
  }
  for (const item of document.contents.items) {
    const offset = (item as { range?: [number, number, number] }).range?.[0] ?? 0;
    const line = lineCounter.linePos(offset).line;
    const record = isMap(item) ? item.toJSON() : undefined;
    const result = toRow(file, line, record);
    if ("row" in result) rows.push(result.row);
    else problems.push(result.problem);
  }
  return { rows, problems };
}

/**
 * The rows of a CSV (a header line of input names), JSONL (one JSON object a line) or YAML (a
 * list of objects) file, each with its line and id; rows sharing an id are problems (an `id`
 * column tells two identical rows apart). `shown` is the file as problems name it.
 * @example const { rows, problems } = await readRows("stories.csv");
 */
export async function readRows(path: string, shown = path): Promise<ReadRows> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new RunnerError(
      "batch_inputs_unreadable",
      `cannot read the inputs file ${shown}: ${error.code === "ENOENT" ? "it does not exist" : error.message}`,
      {
        category: "invalid",
        hint: "give --inputs a CSV, JSONL or YAML file of rows; nothing was sent",
      },
    );
  });
  const extension = extname(path).toLowerCase();
  const read =
    extension === ".csv"
      ? csvRows(shown, text)
      : extension === ".jsonl" || extension === ".ndjson"
        ? jsonlRows(shown, text)
        : extension === ".yaml" || extension === ".yml"
          ? yamlRows(shown, text)
          : {
              rows: [],
              problems: [
                {
                  file: shown,
                  line: 1,
                  message: "an inputs file is .csv, .jsonl or .yaml (its extension says which)",
                },
              ],
            };
  const seen = new Map<string, number>();
  const rows: BatchRow[] = [];
  for (const row of read.rows) {
    const earlier = seen.get(row.id);
    if (earlier !== undefined) {
      read.problems.push({
        file: shown,
        line: row.line,
        field: "id",
        message: `the same id (${row.id}) as the row at line ${earlier}; give each row its own \`id\``,
      });
      continue;
    }
    seen.set(row.id, row.line);
    rows.push(row);
  }
  return { rows, problems: read.problems.sort((a, b) => a.line - b.line) };
}
