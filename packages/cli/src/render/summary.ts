import { describeOtherUnits } from "@reelsmith/runner/runs";
import type { RunResultView } from "../contracts/run-event.js";
import { displayPath, resolveOutput } from "./display-path.js";
import { formatDuration, formatTable } from "./format.js";
import { isFileOutput, outputFiles, type RunView, type StepView } from "./run-state.js";

/**
 * The closing summary: a table of steps (status, duration, tokens, credits spent, credits the
 * cache saved and, when the run had one, the estimate), totals, the jobs line, then the
 * pipeline's text outputs and files (paths relative to `cwd` when they are inside it). Every
 * figure comes from the run's ledger (the events' `totals`), so the table, `--json`, the
 * report and `status` agree.
 *
 * @example
 * out.write(formatSummary(view, result, { cwd: process.cwd() }));
 */
export function formatSummary(
  view: RunView,
  result: RunResultView,
  options: {
    cwd: string;
    /**
     * The terminal's columns, when it is one: a table wider than that leaves out its figure
     * columns that say nothing (`-` in every row), and long text outputs are cut to fit.
     * Unset (a pipe, a file, a CI log): nothing is cut or left out, no line is wrapped.
     */
    width?: number;
  },
): string {
  const totals = result.totals;
  const estimated = view.estimate !== undefined && Object.keys(view.estimate.steps).length > 0;
  const header = ["step", "status", "duration", "tokens", "spent", "saved"];
  if (estimated) header.push("estimate");
  const rows: string[][] = [header];
  for (const step of view.steps.values()) {
    const items =
      step.fanOut && step.items.total > 0 ? ` ${step.items.done}/${step.items.total}` : "";
    // The ledger's figures, also for a step the run stopped in the middle of (it has no
    // step.end): what the step spent is in its row, as in the total.
    const ended = result.steps?.[step.id];
    const figures = ended?.totals ?? step.totals;
    const state = step.state === "running" && ended ? ended.status : step.state;
    const row = [
      step.id,
      state + items,
      step.durationMs === undefined || step.state === "reused"
        ? "-"
        : formatDuration(step.durationMs),
      figure(figures?.totalTokens ?? step.tokens),
      spentFigure(figures),
      figure(figures?.savedCredits),
    ];
    if (estimated) row.push(stepEstimateFigure(step.estimate));
    rows.push(row);
  }
  const totalRow = [
    "total",
    result.status,
    formatDuration(result.durationMs),
    figure(totals.totalTokens),
    figure(totals.credits),
    figure(totals.savedCredits),
  ];
  if (estimated) totalRow.push(estimateFigure(view));
  rows.push(totalRow);
  const lines = [fitTable(rows, estimated ? [3, 4, 5, 6] : [3, 4, 5], options.width)];
  const apart = otherUnitsLine(totals);
  if (apart) lines.push(apart);
  const jobs = jobsLine(totals);
  if (jobs) lines.push(jobs);
  lines.push(`run directory: ${displayPath(result.runDir, options.cwd)}`);
  if (result.report) lines.push(`report: ${displayPath(result.report, options.cwd)}`);
  const files = outputFiles(result.outputs);
  const names = [...textOutputs(result.outputs), ...files].map(([name]) => name);
  const width = Math.max(0, ...names.map((name) => name.length));
  const texts = textOutputs(
    result.outputs,
    options.width ? Math.max(20, Math.min(MAX_TEXT_WIDTH, options.width - width - 5)) : undefined,
  );
  if (texts.length > 0 || files.length > 0) {
    lines.push("outputs:");
    for (const [name, text] of texts) lines.push(`  ${name.padEnd(width)}  ${text}`);
    for (const [name, file] of files) {
      lines.push(
        `  ${name.padEnd(width)}  ${displayPath(resolveOutput(file, result.runDir), options.cwd)}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The step table; on a terminal narrower than it, without the figure columns (from the
 * fourth on) that are `-` in every row, so that its rows are not wrapped by the terminal.
 */
function fitTable(rows: string[][], rightAlign: number[], width: number | undefined): string {
  const table = formatTable(rows, { rightAlign });
  const widest = Math.max(...table.split("\n").map((line) => line.length));
  if (!width || widest <= width) return table;
  const body = rows.slice(1);
  const kept = (rows[0] ?? []).flatMap((_, column) =>
    column < 3 || body.some((row) => row[column] !== "-") ? [column] : [],
  );
  return formatTable(
    rows.map((row) => kept.map((column) => row[column] ?? "")),
    { rightAlign: kept.flatMap((column, at) => (rightAlign.includes(column) ? [at] : [])) },
  );
}

function figure(value: number | undefined): string {
  return value === undefined || value === 0 ? "-" : String(value);
}

/**
 * What a step spent: its credits, and what it spent in a unit that is not credits (a voice
 * priced in usd), each in its own unit, never added together.
 * @example spentFigure({ credits: 0, otherUnits: { usd: 0.15 } }) // "0.15 usd"
 */
function spentFigure(
  totals: { credits?: number; otherUnits?: Readonly<Record<string, number>> } | undefined,
): string {
  const parts = [
    ...(totals?.credits ? [String(totals.credits)] : []),
    ...Object.entries(totals?.otherUnits ?? {})
      .filter(([, amount]) => amount !== 0)
      .map(([unit, amount]) => `${amount} ${unit}`),
  ];
  return parts.length === 0 ? "-" : parts.join(" + ");
}

function stepEstimateFigure(estimate: StepView["estimate"]): string {
  if (!estimate) return "-";
  if (estimate.credits !== undefined && estimate.creditsAtMost !== undefined)
    return `${figure(estimate.credits)}–${figure(estimate.creditsAtMost)}`;
  if (estimate.credits !== undefined) return figure(estimate.credits);
  return estimate.perUnit === undefined ? "?" : `${estimate.perUnit}/item`;
}

function estimateFigure(view: RunView): string {
  const estimate = view.estimate;
  if (!estimate) return "-";
  if (estimate.complete) return String(estimate.credits);
  return estimate.creditsAtMost !== undefined
    ? `${estimate.credits}–${estimate.creditsAtMost}`
    : `${estimate.credits}+`;
}

/**
 * The jobs line under the table: how many video jobs were submitted (paid), re-attached by
 * a resumed run (paid once, by the session that submitted them) and served from the cache.
 *
 * @example
 * jobsLine(totals); // "4 jobs submitted, 0 re-attached, 4 from cache"
 */
export function jobsLine(totals: RunResultView["totals"]): string | undefined {
  if (totals.jobsSubmitted + totals.jobsReattached + totals.jobsCached === 0) return undefined;
  const submitted = `${totals.jobsSubmitted} job${totals.jobsSubmitted === 1 ? "" : "s"} submitted`;
  return `${submitted}, ${totals.jobsReattached} re-attached, ${totals.jobsCached} from cache`;
}

/**
 * What the run spent in units that are not credits (a provider's `unit:` with no
 * `credits_per_unit`), under the table: never added to its credits.
 *
 * @example
 * otherUnitsLine({ ...totals, otherUnits: { usd: 0.5 } }); // "and 0.5 usd spent, not in credits (a provider's unit with no credits_per_unit)"
 */
export function otherUnitsLine(totals: RunResultView["totals"]): string | undefined {
  return describeOtherUnits(totals.otherUnits);
}

const MAX_TEXT_WIDTH = 100;

/**
 * The pipeline's outputs that are text (or numbers, booleans), one line each, and lists of
 * them, a line per entry (`answers[0]`, `answers[1]`, …): a long or multi-line text shows
 * its first line cut to 100 characters with an ellipsis.
 *
 * @example
 * textOutputs({ title: "Fox", film: "final.mp4" }); // [["title", "Fox"]] when film is a file
 * textOutputs({ answers: ["4", "9"] }); // [["answers[0]", "4"], ["answers[1]", "9"]]
 */
export function textOutputs(
  outputs: Record<string, unknown> | undefined,
  maxWidth = MAX_TEXT_WIDTH,
): [string, string][] {
  const texts: [string, string][] = [];
  for (const [name, value] of Object.entries(outputs ?? {})) {
    // Files and lists of files are listed apart (`outputFiles`).
    if (isFileOutput(value)) continue;
    if (typeof value === "number" || typeof value === "boolean") {
      texts.push([name, String(value)]);
    } else if (typeof value === "string") {
      texts.push([name, firstLine(value, maxWidth)]);
    } else if (Array.isArray(value) && value.length > 0 && value.every(isScalar)) {
      // A list of texts (a fan-out's answers): one line each, numbered as `[0]`, `[1]`, …
      value.forEach((entry, index) => {
        texts.push([`${name}[${index}]`, firstLine(String(entry), maxWidth)]);
      });
    }
  }
  return texts;
}

/** A text's first line, cut to `maxWidth` with an ellipsis when it is longer or goes on. */
function firstLine(value: string, maxWidth: number): string {
  const first = value.split(/\r?\n/, 1)[0] ?? "";
  const cut = first.length > maxWidth || first.length < value.trimEnd().length;
  return cut ? `${first.slice(0, maxWidth)}…` : first;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

export { displayPath, resolveOutput } from "./display-path.js";
