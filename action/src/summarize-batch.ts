import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { cell, formatDuration } from "./format-summary.js";
import { type LoggedEvent, parseEvents } from "./run-digest.js";

/** What {@link summarizeBatch} reads. */
export interface SummarizeBatchOptions {
  /** The batch directory (absolute or relative to `workspace`). */
  batchDir: string;
  /** The CLI's `--json` output: the estimate, and the rows when batch.json is missing. */
  eventsFile?: string;
  stderrFile?: string;
  exitCode?: string;
  pipeline: string;
  workspace: string;
  artifact?: { name: string; url?: string };
}

/** One row of the batch table. */
export interface BatchSummaryRow {
  id: string;
  line: number;
  status: string;
  credits: number;
  durationMs?: number;
  /** The row's final video (absolute), when it exists. */
  final?: string;
  error?: string;
}

/** The batch's job summary, the action's outputs and the exit code to end with. */
export interface BatchSummary {
  markdown: string;
  outputs: {
    status: string;
    "batch-dir": string;
    "run-dir": string;
    finals: string;
    video: string;
    credits: string;
    report: string;
  };
  rows: BatchSummaryRow[];
  exitCode: number;
}

interface BatchJsonRow {
  id?: unknown;
  line?: unknown;
  status?: unknown;
  credits?: unknown;
  durationMs?: unknown;
  final?: unknown;
  error?: unknown;
}

const HEADLINES: Record<string, string> = {
  succeeded: "✅ {name}: every row succeeded",
  failed: "❌ {name}: rows failed",
  budget_reached: "💸 {name} stopped: the batch's credit budget is reached",
  interrupted: "⏹️ {name} was interrupted",
  waiting: "⏸️ {name}: rows wait for approval",
  not_started: "❌ {name} did not run",
};

function read(file: string | undefined): string {
  if (!file) return "";
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function shown(file: string, workspace: string): string {
  const relative = path.relative(workspace, file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

const number = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

function toRow(value: BatchJsonRow, batchDir: string): BatchSummaryRow | undefined {
  const id = text(value.id);
  if (!id) return undefined;
  const row: BatchSummaryRow = {
    id,
    line: number(value.line) ?? 0,
    status: text(value.status) ?? "pending",
    credits: number(value.credits) ?? 0,
  };
  const durationMs = number(value.durationMs);
  if (durationMs !== undefined) row.durationMs = durationMs;
  const final = text(value.final);
  if (final) {
    const file = path.resolve(batchDir, final);
    if (isFile(file)) row.final = file;
  }
  const error = text(value.error);
  if (error) row.error = error;
  return row;
}

/** The rows from the CLI's events, when batch.json was never written. */
function rowsFromEvents(events: LoggedEvent[], batchDir: string): BatchSummaryRow[] {
  const rows = new Map<string, BatchJsonRow>();
  for (const event of events) {
    if (typeof event.row !== "string") continue;
    if (event.type === "batch.row.start")
      rows.set(event.row, { id: event.row, line: event.line, status: "running", credits: 0 });
    if (event.type === "batch.row.end") rows.set(event.row, { ...event, id: event.row });
    if (event.type === "batch.row.skipped")
      rows.set(event.row, {
        id: event.row,
        line: event.line,
        status: "budget_reached",
        credits: 0,
        error: event.message,
      });
  }
  return [...rows.values()].flatMap((row) => toRow(row, batchDir) ?? []);
}

/**
 * The status the action reports for a batch: batch.json's, `interrupted` for a batch stopped
 * by a signal (a cancelled job) or one that never wrote its end, `not_started` without rows.
 *
 * @example
 * batchStatus("running", 130); // "interrupted"
 */
export function batchStatus(recorded: string | undefined, exitCode: number): string {
  if (!recorded) return exitCode === 130 ? "interrupted" : "not_started";
  if (recorded === "cancelled" || recorded === "running")
    return exitCode === 130 || recorded === "cancelled" ? "interrupted" : "failed";
  return recorded;
}

/**
 * The job summary of a batch in Markdown: a headline, the figures, and the batch table (row,
 * status, credits, duration, final), then where the batch directory and its batch.html went.
 *
 * @example
 * formatBatchSummary({ name: "daily", status: "succeeded", rows, exitCode: 0, workspace: "/w", batchDir: "/w/runs/x-batch" });
 */
export function formatBatchSummary(context: {
  name: string;
  status: string;
  rows: BatchSummaryRow[];
  exitCode: number;
  workspace: string;
  batchDir: string;
  credits: number;
  estimated?: { credits: number; complete: boolean };
  durationMs?: number;
  report?: string;
  artifact?: { name: string; url?: string };
  stderrTail?: string;
}): string {
  const headline = (HEADLINES[context.status] ?? `{name}: ${context.status}`).replace(
    "{name}",
    `reelsmith batch ${cell(context.name)}`,
  );
  const lines = [`## ${headline}`, ""];
  const counts = new Map<string, number>();
  for (const row of context.rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const facts = [`**${context.credits} credits** spent`];
  if (context.estimated)
    facts.push(
      `${context.estimated.complete ? "" : "≥ "}${context.estimated.credits} estimated for the rows run`,
    );
  facts.push(`${context.rows.length} rows`);
  for (const [status, count] of counts) facts.push(`${count} ${status}`);
  if (context.durationMs !== undefined) facts.push(formatDuration(context.durationMs));
  facts.push(`exit code ${context.exitCode}`);
  lines.push(facts.join(" · "), "");
  if (context.rows.length > 0) {
    lines.push(
      "| row | status | credits | duration | final |",
      "| --- | --- | ---: | ---: | --- |",
    );
    for (const row of context.rows) {
      const status = row.error ? `${row.status}: ${row.error.slice(0, 200)}` : row.status;
      lines.push(
        `| ${cell(row.id)} (line ${row.line}) | ${cell(status)} | ${row.credits} | ${row.durationMs === undefined ? "—" : formatDuration(row.durationMs)} | ${row.final ? `\`${cell(shown(row.final, context.workspace))}\`` : "—"} |`,
      );
    }
    lines.push("");
  }
  if (context.rows.length === 0 && context.stderrTail?.trim()) {
    lines.push("```text", context.stderrTail.replace(/```/g, "'''").trimEnd(), "```", "");
  }
  lines.push("### Batch directory and report", "");
  const where = `\`${cell(shown(context.batchDir, context.workspace))}\``;
  if (context.artifact) {
    const link = context.artifact.url ? ` ([download](${context.artifact.url}))` : "";
    lines.push(
      `The batch directory ${where} is uploaded as the artifact **${cell(context.artifact.name)}**${link}; \`reelsmith resume\` finishes it from there.`,
    );
  } else {
    lines.push(`The batch directory is ${where} (not uploaded).`);
  }
  if (context.report)
    lines.push(
      `Its report is \`${cell(path.relative(context.batchDir, context.report))}\`, a row per input with a link to each run's report.`,
    );
  lines.push("");
  return `${lines.join("\n")}\n`;
}

/**
 * Read a batch (its batch.json, else the CLI's events) and make the job summary and the
 * outputs. Never throws for a missing or partial batch.
 *
 * @example
 * const { markdown, outputs } = summarizeBatch({ batchDir, exitCode: "0", pipeline, workspace });
 */
export function summarizeBatch(options: SummarizeBatchOptions): BatchSummary {
  const batchDir = path.resolve(options.workspace, options.batchDir);
  let batch: { name?: unknown; status?: unknown; credits?: unknown; rows?: unknown } = {};
  try {
    batch = JSON.parse(read(path.join(batchDir, "batch.json")) || "{}");
  } catch {
    batch = {};
  }
  const events = parseEvents(read(options.eventsFile));
  const rows = Array.isArray(batch.rows)
    ? (batch.rows as BatchJsonRow[]).flatMap((row) => toRow(row, batchDir) ?? [])
    : rowsFromEvents(events, batchDir);
  rows.sort((a, b) => a.line - b.line);
  const parsedExit = Number.parseInt(options.exitCode ?? "", 10);
  const exitCode = Number.isNaN(parsedExit) ? 1 : parsedExit;
  const end = events.findLast((event) => event.type === "batch.end");
  const start = events.findLast((event) => event.type === "batch.start");
  const status = batchStatus(text(batch.status) ?? text(end?.status), exitCode);
  const credits = number(batch.credits) ?? rows.reduce((sum, row) => sum + row.credits, 0);
  const estimate = start?.estimate as { credits?: unknown; complete?: unknown } | undefined;
  const report = existsSync(path.join(batchDir, "batch.html"))
    ? path.join(batchDir, "batch.html")
    : undefined;
  const finals = rows.flatMap((row) => (row.final ? [row.final] : []));
  const durationMs = number(end?.durationMs);
  const markdown = formatBatchSummary({
    name: text(batch.name) ?? text(start?.name) ?? options.pipeline,
    status,
    rows,
    exitCode,
    workspace: options.workspace,
    batchDir,
    credits,
    ...(number(estimate?.credits) !== undefined
      ? {
          estimated: {
            credits: number(estimate?.credits) ?? 0,
            complete: estimate?.complete === true,
          },
        }
      : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(report ? { report } : {}),
    ...(options.artifact ? { artifact: options.artifact } : {}),
    stderrTail: read(options.stderrFile).split("\n").slice(-20).join("\n"),
  });
  return {
    markdown,
    rows,
    outputs: {
      status,
      "batch-dir": batchDir,
      "run-dir": "",
      finals: finals.join("\n"),
      video: "",
      credits: String(credits),
      report: report ?? "",
    },
    exitCode: Number.isNaN(parsedExit) && status !== "succeeded" ? 1 : exitCode,
  };
}
