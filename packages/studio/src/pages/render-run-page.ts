import { type ReportModel, renderReportBody } from "@reelsmith/report/page";
import { type ActionView, renderActions } from "./render-actions.js";
import { renderShell } from "./render-shell.js";

/**
 * What the live part of a run page shows: the actions, then the report's own sections (the
 * same model and renderers as report.html). Sent again whenever the run changes.
 * @example const html = renderRunView({ name, model, locked, session });
 */
export function renderRunView(view: ActionView): string {
  return `${renderActions(view)}\n<div id="report">${renderReportBody(view.model)}</div>`;
}

/**
 * A run's page: its live view and the progress log the page's script fills from the run's
 * server-sent events.
 * @example const html = renderRunPage({ name, model, locked, session });
 */
export function renderRunPage(view: ActionView & { model: ReportModel }): string {
  const base = `/api/runs/${encodeURIComponent(view.name)}`;
  return renderShell(
    view.name,
    `<div id="live">${renderRunView(view)}</div><section id="progress-log"><h2>Progress</h2><ol id="progress" aria-live="polite"></ol></section>`,
    ` data-live="${base}/events" data-view="${base}/view"`,
  );
}
