import { escapeHtml, formatNumber } from "@reelsmith/report/page";
import type { BatchSummary } from "../runs/list-batches.js";
import { renderShell } from "./render-shell.js";

const counts = (batch: BatchSummary) =>
  Object.entries(batch.counts)
    .map(([status, count]) => `${count} ${status}`)
    .join(", ");

function seconds(ms: number | undefined): string {
  return ms === undefined ? "—" : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The batches of the runs list: each batch directory's status, rows by status and credits,
 * its name linking to its page (`/batches/NAME/`). Empty when there are none.
 * @example const html = renderBatchesTable(listBatches("/srv/runs"));
 */
export function renderBatchesTable(batches: readonly BatchSummary[]): string {
  if (batches.length === 0) return "";
  const rows = batches
    .map(
      (batch) =>
        `<tr data-batch="${escapeHtml(batch.name)}"><td><a class="mono" href="/batches/${encodeURIComponent(batch.name)}/">${escapeHtml(batch.name)}</a></td><td>${escapeHtml(batch.batch)}</td><td><span class="badge ${escapeHtml(batch.status)}">${escapeHtml(batch.status)}</span></td><td class="num rows">${batch.rows.length}</td><td class="counts">${escapeHtml(counts(batch))}</td><td class="num spent">${escapeHtml(formatNumber(batch.credits))}</td><td>${escapeHtml(batch.startedAt ?? "")}</td></tr>`,
    )
    .join("");
  return `<section id="batches"><h1>Batches</h1><table class="runs batches"><thead><tr><th>batch</th><th>name</th><th>status</th><th>rows</th><th>by status</th><th>spent</th><th>started</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/**
 * A batch's page: one line per row of its inputs (line, status, credits, duration, its error),
 * the row's id linking to its run's live page, and its final video.
 * @example const html = renderBatchPage(readBatchSummary("/srv/runs", name));
 */
export function renderBatchPage(batch: BatchSummary): string {
  const rows = batch.rows
    .map((row) => {
      const base = row.run ? `/runs/${encodeURIComponent(row.run)}/` : undefined;
      const id = base
        ? `<a class="mono run" href="${base}">${escapeHtml(row.id)}</a>`
        : `<span class="mono">${escapeHtml(row.id)}</span>`;
      const final =
        base && row.final
          ? `<a class="final mono" href="${base}${row.final.split("/").map(encodeURIComponent).join("/")}">${escapeHtml(row.final)}</a>`
          : "—";
      return `<tr data-row="${escapeHtml(row.id)}"><td>${id}</td><td class="num">${row.line}</td><td><span class="badge ${escapeHtml(row.status)}">${escapeHtml(row.status)}</span>${row.error ? `<br><small class="error">${escapeHtml(row.error)}</small>` : ""}</td><td class="num spent">${escapeHtml(formatNumber(row.credits))}</td><td class="num">${escapeHtml(seconds(row.durationMs))}</td><td>${final}</td></tr>`;
    })
    .join("");
  const table =
    batch.rows.length === 0
      ? `<p class="empty">No row has started yet.</p>`
      : `<table class="runs rows"><thead><tr><th>row</th><th>line</th><th>status</th><th>spent</th><th>duration</th><th>final</th></tr></thead><tbody>${rows}</tbody></table>`;
  return renderShell(
    batch.name,
    `<section id="batch" data-batch="${escapeHtml(batch.name)}"><h1>${escapeHtml(batch.batch)} <span class="badge ${escapeHtml(batch.status)}">${escapeHtml(batch.status)}</span></h1><p class="facts">${batch.rows.length} rows (${escapeHtml(counts(batch))}) · <span class="spent">${escapeHtml(formatNumber(batch.credits))}</span> credits · <span class="mono">${escapeHtml(batch.name)}</span></p>${table}</section>`,
  );
}
