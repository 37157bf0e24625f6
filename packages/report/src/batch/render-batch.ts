import type { BatchJson, BatchRowState, BatchRowStatus } from "@reelsmith/runner/batch";
import { escapeHtml, formatDuration, formatNumber, relativeUrl } from "../render/escape.js";
import { contentSecurityPolicy } from "../render/render-page.js";
import { STYLES } from "../render/styles.js";

/** A row as the batch page shows it: its state and the files of its run, relative to the batch. */
export interface BatchRowView extends BatchRowState {
  /** The row's run report, relative to the batch directory, when it exists. */
  report?: string;
  /** The final video's poster frame, relative to the batch directory, when made. */
  poster?: string;
  /** The final video, relative to the batch directory. */
  video?: string;
}

/** What the batch page is made from. */
export interface BatchReportModel {
  batch: BatchJson;
  rows: BatchRowView[];
  generatedAt: string;
}

/** Rows that need a look come first: failed, stopped by the budget, cancelled, waiting, then the rest. */
const ORDER: Record<BatchRowStatus, number> = {
  failed: 0,
  budget_reached: 1,
  cancelled: 2,
  waiting: 3,
  running: 4,
  pending: 5,
  succeeded: 6,
};

/**
 * The batch's rows in the page's order: failures first, then by line.
 * @example orderRows(rows)[0].status // "failed"
 */
export function orderRows<T extends BatchRowState>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.line - b.line);
}

const BATCH_STYLES = `${STYLES}
table.batch{border-collapse:collapse;background:var(--card);border:1px solid var(--line);width:100%}
table.batch th,table.batch td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}
table.batch td.num{text-align:right;font-variant-numeric:tabular-nums}
table.batch img.poster{width:160px;height:auto;display:block;border-radius:4px}
table.batch .error{color:var(--bad);max-width:36em}
.badge.budget_reached{background:#fbd5d5;color:#7f1d1d}
`;

function renderRow(row: BatchRowView): string {
  const poster = row.poster
    ? `<img class="poster" alt="poster frame of ${escapeHtml(row.id)}" src="${relativeUrl(row.poster)}">`
    : "";
  const links = [
    row.report ? `<a class="run-report" href="${relativeUrl(row.report)}">run report</a>` : "",
    row.video ? `<a class="video" href="${relativeUrl(row.video)}">video</a>` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  return `<tr class="row ${escapeHtml(row.status)}" data-row="${escapeHtml(row.id)}"><td>${poster}</td><td class="mono">${escapeHtml(row.id)}<br><small>line ${escapeHtml(row.line)}</small></td><td><span class="badge ${escapeHtml(row.status)}">${escapeHtml(row.status)}</span></td><td class="num credits">${escapeHtml(formatNumber(row.credits))}</td><td class="num duration">${row.durationMs === undefined ? "" : escapeHtml(formatDuration(row.durationMs))}</td><td>${links}${row.error ? `<div class="error">${escapeHtml(row.error)}</div>` : ""}</td></tr>`;
}

/**
 * The batch page: one self-contained HTML document (inline styles, no script, nothing from
 * the network), one table row per input row, failures first.
 * @example const html = renderBatchPage({ batch, rows, generatedAt: new Date().toISOString() });
 */
export function renderBatchPage(model: BatchReportModel): string {
  const { batch } = model;
  const counts = new Map<string, number>();
  for (const row of model.rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const summary = [...counts.entries()].map(([status, n]) => `${n} ${status}`).join(" · ");
  const facts: [string, string][] = [
    ["pipeline", `<span class="mono">${escapeHtml(batch.pipeline.path)}</span>`],
    ["inputs", `<span class="mono">${escapeHtml(batch.inputsFile)}</span>`],
    ["rows", escapeHtml(`${model.rows.length} (${summary})`)],
    [
      "spent",
      `<span id="batch-credits">${escapeHtml(formatNumber(batch.credits))}</span> credits${batch.options.maxCredits === undefined ? "" : ` of a budget of ${escapeHtml(batch.options.maxCredits)}`}`,
    ],
    ["started", escapeHtml(batch.startedAt)],
    ["updated", escapeHtml(batch.updatedAt)],
    ["batch id", `<span class="mono">${escapeHtml(batch.batchId)}</span>`],
  ];
  const rows = orderRows(model.rows).map(renderRow).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(BATCH_STYLES, ""))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(`${batch.name} — ${batch.status} — reelsmith batch`)}</title>
<style>${BATCH_STYLES}</style>
</head>
<body>
<main>
<header class="header"><h1>${escapeHtml(batch.name)}</h1><p class="status-line"><span class="badge ${escapeHtml(batch.status)}" id="batch-status">${escapeHtml(batch.status)}</span></p><dl>${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join("")}</dl></header>
<section><h2>Rows</h2>
<table class="batch"><thead><tr><th>poster</th><th>row</th><th>status</th><th>credits</th><th>duration</th><th>run</th></tr></thead>
<tbody>
${rows}
</tbody></table></section>
<footer>reelsmith batch report generated ${escapeHtml(model.generatedAt)}. Rebuild it with <code>reelsmith report &lt;batch-dir&gt;</code>.</footer>
</main>
</body>
</html>
`;
}
