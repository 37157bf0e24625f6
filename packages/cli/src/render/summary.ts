import path from "node:path";
import type { RunResultView } from "../contracts/run-event.js";
import { formatDuration, formatTable } from "./format.js";
import { outputFiles, type RunView } from "./run-state.js";

/**
 * The closing summary: a table of steps (status, duration, tokens, credits), totals, and the
 * output files as paths relative to `cwd` when they are inside it. The last line names the
 * final output file, so a run always ends by printing where its result is.
 *
 * @example
 * out.write(formatSummary(view, result, { cwd: process.cwd() }));
 */
export function formatSummary(
  view: RunView,
  result: RunResultView,
  options: { cwd: string },
): string {
  const rows: string[][] = [["step", "status", "duration", "tokens", "credits"]];
  for (const step of view.steps.values()) {
    const items =
      step.fanOut && step.items.total > 0 ? ` ${step.items.done}/${step.items.total}` : "";
    rows.push([
      step.id,
      step.state + items,
      step.durationMs === undefined || step.state === "reused"
        ? "-"
        : formatDuration(step.durationMs),
      step.tokens > 0 ? String(step.tokens) : "-",
      step.credits > 0 ? String(step.credits) : "-",
    ]);
  }
  const totals = result.totals;
  rows.push([
    "total",
    result.status,
    formatDuration(result.durationMs),
    totals.totalTokens > 0 ? String(totals.totalTokens) : "-",
    totals.credits > 0 ? String(totals.credits) : "-",
  ]);
  const lines = [formatTable(rows, { rightAlign: [3, 4] })];
  const extras: string[] = [];
  if (totals.videos > 0) extras.push(`${totals.videos} video job${totals.videos === 1 ? "" : "s"}`);
  if (totals.cachedSteps > 0) extras.push(`${totals.cachedSteps} from cache`);
  if (extras.length > 0) lines.push(extras.join(", "));
  lines.push(`run directory: ${displayPath(result.runDir, options.cwd)}`);
  if (result.report) lines.push(`report: ${displayPath(result.report, options.cwd)}`);
  const files = outputFiles(result.outputs);
  if (files.length > 0) {
    lines.push("outputs:");
    const width = Math.max(...files.map(([name]) => name.length));
    for (const [name, file] of files) {
      lines.push(
        `  ${name.padEnd(width)}  ${displayPath(resolveOutput(file, result.runDir), options.cwd)}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * An output path made absolute against the run directory.
 *
 * @example
 * resolveOutput("final.mp4", "/runs/x"); // "/runs/x/final.mp4"
 */
export function resolveOutput(file: string, runDir: string): string {
  return path.isAbsolute(file) ? file : path.resolve(runDir, file);
}

/**
 * A path relative to `cwd` when it is inside it, else absolute.
 *
 * @example
 * displayPath("/work/runs/x/final.mp4", "/work"); // "runs/x/final.mp4"
 */
export function displayPath(file: string, cwd: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : absolute;
}
