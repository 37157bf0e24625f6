import { escapeHtml, formatNumber } from "@reelsmith/report/page";
import { describeOtherUnits } from "@reelsmith/runner/runs";
import type { BatchSummary } from "../runs/list-batches.js";
import type { RunSummary } from "../runs/list-runs.js";
import { renderBatchesTable } from "./render-batches.js";
import { renderShell } from "./render-shell.js";

function rowHtml(run: RunSummary): string {
  const estimate =
    run.estimate === undefined
      ? "—"
      : escapeHtml(`${formatNumber(run.estimate)}${run.estimateComplete === false ? "+" : ""}`);
  const workers = run.workers
    ? run.workers
        .map(
          (worker) =>
            `<span class="worker mono${worker.live ? " live" : ""}">${escapeHtml(`${worker.host}${worker.pid ? ` pid ${worker.pid}` : ""}`)}</span>`,
        )
        .join("<br>")
    : "";
  // Beside the credits, in the closing table's words: never added to them.
  const apart = describeOtherUnits(run.otherUnits);
  const where = run.database ? `<br><small class="where">--database</small>` : "";
  return `<tr data-run="${escapeHtml(run.name)}"${run.database ? ' data-database="true"' : ""}><td><a class="mono" href="/runs/${encodeURIComponent(run.name)}/">${escapeHtml(run.name)}</a>${where}</td><td>${escapeHtml(run.pipeline)}${run.pipelinePath ? `<br><small class="mono">${escapeHtml(run.pipelinePath)}</small>` : ""}</td><td><span class="badge ${escapeHtml(run.status)}">${escapeHtml(run.status)}</span></td><td class="num spent">${escapeHtml(formatNumber(run.spent))}${apart ? `<br><small class="other-units">${escapeHtml(apart)}</small>` : ""}</td><td class="num estimate">${estimate}</td><td>${escapeHtml(run.startedAt ?? "")}</td><td>${escapeHtml(run.endedAt ?? "")}</td><td class="workers">${workers}</td></tr>`;
}

/**
 * The live part of the runs list: a table of each run's status, spent and estimated credits,
 * when, pipeline, and (a run made with `--database`) the workers that ran it, each name linking to its live page (sent again whenever a run changes); then the batches under the runs directory.
 * @example const html = renderRunsTable("/srv/runs", listRuns("/srv/runs"));
 */
export function renderRunsTable(
  runsDir: string,
  runs: readonly RunSummary[],
  batches: readonly BatchSummary[] = [],
): string {
  const table =
    runs.length === 0
      ? `<p class="empty">No runs here yet. Start one with <code>reelsmith run PIPELINE</code>; it appears here as it starts.</p>`
      : `<table class="runs"><thead><tr><th>run</th><th>pipeline</th><th>status</th><th>spent</th><th>estimate</th><th>started</th><th>ended</th><th>workers</th></tr></thead><tbody>${runs.map(rowHtml).join("")}</tbody></table>`;
  return `<section id="runs"><h1>Runs <small class="mono">${escapeHtml(runsDir)}</small></h1>${table}</section>${renderBatchesTable(batches)}`;
}

/**
 * The runs list page, kept live by the page's script.
 * @example const html = renderRunsList("/srv/runs", listRuns("/srv/runs"));
 */
export function renderRunsList(
  runsDir: string,
  runs: readonly RunSummary[],
  batches: readonly BatchSummary[] = [],
): string {
  return renderShell(
    "runs",
    `<div id="live">${renderRunsTable(runsDir, runs, batches)}</div>`,
    ` data-live="/api/runs/events" data-view="/api/runs/view"`,
  );
}
