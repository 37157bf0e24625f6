import path from "node:path";
import type { RunDigest, StepRow } from "./run-digest.js";
import type { RunOutputs } from "./run-outputs.js";

/** What the job summary shows besides the run itself. */
export interface SummaryContext {
  /** The status the action reports (see `actionStatus`). */
  status: string;
  exitCode: number;
  /** The pipeline input, as given. */
  pipeline: string;
  /** Paths inside it are shown relative to it. */
  workspace: string;
  outputs: RunOutputs;
  /** The report.html, when the run wrote one. */
  report?: string;
  /** The artifact the run directory was uploaded as. */
  artifact?: { name: string; url?: string };
  /** The CLI's last stderr lines, shown when the run did not end (e.g. it never started). */
  stderrTail?: string;
}

const HEADLINES: Record<string, string> = {
  succeeded: "✅ {name} succeeded",
  failed: "❌ {name} failed",
  budget_reached: "💸 {name} stopped: credit budget reached",
  cancelled: "⏹️ {name} was cancelled",
  interrupted: "⏹️ {name} was interrupted",
  waiting: "⏸️ {name} is waiting for approval",
  not_started: "❌ {name} did not run",
};

/**
 * Text made safe for a Markdown table cell: no `|` or line break to break the table, no HTML.
 *
 * @example
 * cell("a | b\nc"); // "a \\| b c"
 */
export function cell(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/\r?\n/g, " ")
    .replace(/`/g, "'");
}

function shorten(value: string, max = 300): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/**
 * A duration for people: `850 ms`, `12.3 s`, `4 min 05 s`.
 *
 * @example
 * formatDuration(245_000); // "4 min 05 s"
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function shown(file: string, workspace: string): string {
  const relative = path.relative(workspace, file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

const figure = (value: number | undefined): string => (value === undefined ? "—" : String(value));

/** A step's expected credits: its figure, else per item (their number known at run time). */
const stepEstimate = (row: StepRow): string =>
  row.estimated === undefined && row.estimatedPerItem !== undefined
    ? `${row.estimatedPerItem}/item`
    : figure(row.estimated);

/** The run's expected credits; `≥ N` when only part of it was known before the run. */
const runEstimate = (digest: RunDigest): string =>
  digest.estimated !== undefined && digest.estimateComplete === false
    ? `≥ ${digest.estimated}`
    : figure(digest.estimated);

function stepStatus(row: StepRow): string {
  const items = row.items && row.items.total > 0 ? ` ${row.items.done}/${row.items.total}` : "";
  const failed = row.items?.failed ? ` (${row.items.failed} failed)` : "";
  return `${row.status}${items}${failed}`;
}

function stepTable(digest: RunDigest, status: string): string[] {
  const lines = [
    "| step | status | duration | tokens | credits | saved | estimated |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of digest.steps) {
    lines.push(
      `| ${cell(row.id)} | ${cell(stepStatus(row))} | ${row.durationMs === undefined || row.status === "reused" ? "—" : formatDuration(row.durationMs)} | ${figure(row.tokens)} | ${figure(row.credits)} | ${figure(row.saved)} | ${stepEstimate(row)} |`,
    );
  }
  lines.push(
    `| **total** | **${cell(status)}** | ${digest.durationMs === undefined ? "—" : formatDuration(digest.durationMs)} | ${figure(digest.tokens)} | ${figure(digest.credits)} | ${figure(digest.saved)} | ${runEstimate(digest)} |`,
  );
  return lines;
}

/**
 * The job summary of a run, in Markdown: a status headline, the figures, the step table,
 * the error, the text outputs, the output files, and where the run directory and its
 * report went. A run that never started gets its headline and the CLI's last lines.
 *
 * @example
 * await summary.addRaw(formatSummary(digest, context)).write();
 */
export function formatSummary(digest: RunDigest, context: SummaryContext): string {
  const name = digest.name ?? context.pipeline;
  const headline = (HEADLINES[context.status] ?? `{name}: ${context.status}`).replace(
    "{name}",
    `reelsmith: ${cell(name)}`,
  );
  const lines = [`## ${headline}`, ""];
  const facts: string[] = [];
  if (digest.credits !== undefined) facts.push(`**${digest.credits} credits** spent`);
  if (digest.saved !== undefined) facts.push(`${digest.saved} saved`);
  if (digest.estimated !== undefined) facts.push(`${runEstimate(digest)} estimated`);
  if (digest.tokens !== undefined) facts.push(`${digest.tokens} tokens`);
  for (const [noun, count] of Object.entries(digest.made ?? {}))
    facts.push(`${count} ${count === 1 && noun.endsWith("s") ? noun.slice(0, -1) : noun}`);
  if (digest.durationMs !== undefined) facts.push(formatDuration(digest.durationMs));
  facts.push(`exit code ${context.exitCode}`);
  lines.push(facts.join(" · "), "");
  if (digest.steps.length > 0) lines.push(...stepTable(digest, context.status), "");
  if (digest.error) {
    const where = digest.error.step ? ` (step ${cell(digest.error.step)})` : "";
    const code = digest.error.code ? ` \`${cell(digest.error.code)}\`` : "";
    lines.push(`> **Error**${code}${where}: ${cell(shorten(digest.error.message, 1000))}`, "");
  }
  if (!digest.status && context.stderrTail?.trim()) {
    lines.push("```text", context.stderrTail.replace(/```/g, "'''").trimEnd(), "```", "");
  }
  if (context.outputs.values.length > 0) {
    lines.push("### Outputs", "", "| output | value |", "| --- | --- |");
    for (const { name: output, value } of context.outputs.values) {
      const textValue = typeof value === "string" ? value : JSON.stringify(value);
      lines.push(`| ${cell(output)} | ${cell(shorten(textValue ?? ""))} |`);
    }
    lines.push("");
  }
  if (context.outputs.files.length > 0) {
    lines.push("### Files", "", "| output | file | size |", "| --- | --- | ---: |");
    for (const entry of context.outputs.files) {
      lines.push(
        `| ${cell(entry.name)} | \`${cell(shown(entry.file, context.workspace))}\` | ${formatBytes(entry.bytes)} |`,
      );
    }
    lines.push("");
  }
  if (digest.runDir) {
    lines.push("### Run directory and report", "");
    const where = `\`${cell(shown(digest.runDir, context.workspace))}\``;
    if (context.artifact) {
      const link = context.artifact.url ? ` ([download](${context.artifact.url}))` : "";
      lines.push(
        `The run directory ${where} is uploaded as the artifact **${cell(context.artifact.name)}**${link}.`,
      );
    } else {
      lines.push(`The run directory is ${where} (not uploaded).`);
    }
    if (context.report) {
      const report = `\`${cell(path.relative(digest.runDir, context.report))}\``;
      lines.push(
        context.artifact
          ? `Its report is ${report}: open it from the downloaded artifact, the clips play beside it.`
          : `Its report is ${report} in the run directory.`,
      );
    }
    if (digest.runId) lines.push(`Run id \`${cell(digest.runId)}\`.`);
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}
