import { escapeHtml, formatNumber } from "@reelsmith/report";
import type { RunSummary } from "../runs/list-runs.js";
import { renderShell } from "./render-shell.js";

/**
 * The runs list: each run's status, spent and estimated credits, when, and pipeline; each
 * name links to its live page.
 * @example const html = renderRunsList("/srv/runs", listRuns("/srv/runs"));
 */
export function renderRunsList(runsDir: string, runs: readonly RunSummary[]): string {
  const rows = runs
    .map(
      (run) =>
        `<tr data-run="${escapeHtml(run.name)}"><td><a class="mono" href="/runs/${encodeURIComponent(run.name)}/">${escapeHtml(run.name)}</a></td><td>${escapeHtml(run.pipeline)}${run.pipelinePath ? `<br><small class="mono">${escapeHtml(run.pipelinePath)}</small>` : ""}</td><td><span class="badge ${escapeHtml(run.status)}">${escapeHtml(run.status)}</span></td><td class="num spent">${escapeHtml(formatNumber(run.spent))}</td><td class="num estimate">${run.estimate === undefined ? "—" : escapeHtml(`${formatNumber(run.estimate)}${run.estimateComplete === false ? "+" : ""}`)}</td><td>${escapeHtml(run.startedAt ?? "")}</td><td>${escapeHtml(run.endedAt ?? "")}</td></tr>`,
    )
    .join("");
  const table =
    runs.length === 0
      ? `<p class="empty">No runs here yet. Start one with <code>reelsmith run PIPELINE</code>; it appears here as it starts.</p>`
      : `<table class="runs"><thead><tr><th>run</th><th>pipeline</th><th>status</th><th>spent</th><th>estimate</th><th>started</th><th>ended</th></tr></thead><tbody>${rows}</tbody></table>`;
  return renderShell(
    "runs",
    `<section id="runs"><h1>Runs <small class="mono">${escapeHtml(runsDir)}</small></h1>${table}</section>`,
    ` data-live="/api/runs/events"`,
  );
}
