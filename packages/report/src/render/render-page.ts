import { createHash } from "node:crypto";
import { describeMade } from "@reelsmith/runner/runs";
import type { ReportModel } from "../model/report-model.js";
import { escapeHtml, formatDuration, formatNumber, jsonBlock } from "./escape.js";
import { PAGE_SCRIPT } from "./page-script.js";
import { renderApprovals } from "./render-approvals.js";
import { renderChats, renderErrors } from "./render-chats.js";
import { renderCosts } from "./render-costs.js";
import { renderFinal, renderImages, renderSounds, renderStoryboard } from "./render-storyboard.js";
import { renderTimeline } from "./render-timeline.js";
import { STYLES } from "./styles.js";

/**
 * The page's Content-Security-Policy: nothing from the network, only the page's own inline
 * script and stylesheet (by their hashes: nothing injected can run), and media and pictures
 * only from the page's own location (the run directory) or local files.
 */
export function contentSecurityPolicy(styles: string, script: string): string {
  const styleHash = createHash("sha256").update(styles).digest("base64");
  const scriptHash = createHash("sha256").update(script).digest("base64");
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    `style-src 'sha256-${styleHash}'`,
    // 'self' is the page's own place; file: keeps a report opened from disk working in
    // browsers that give file pages an opaque origin.
    "img-src 'self' file:",
    "media-src 'self' file:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

function renderHeader(model: ReportModel): string {
  const rows: [string, string][] = [];
  if (model.pipelinePath)
    rows.push(["pipeline", `<span class="mono">${escapeHtml(model.pipelinePath)}</span>`]);
  rows.push(["service", escapeHtml(model.service)]);
  if (model.startedAt) rows.push(["started", escapeHtml(model.startedAt)]);
  if (model.resumedAt) rows.push(["resumed", escapeHtml(model.resumedAt)]);
  if (model.endedAt) rows.push(["ended", escapeHtml(model.endedAt)]);
  if (model.startedAt && model.endedAt) {
    const ms = Date.parse(model.endedAt) - Date.parse(model.startedAt);
    if (Number.isFinite(ms)) rows.push(["wall time", escapeHtml(formatDuration(ms))]);
  }
  if (model.active) {
    const { ms, sessions, betweenMs } = model.active;
    const between = sessions > 1 ? ` in ${sessions} sessions` : "";
    rows.push([
      "active time",
      `<span id="active-time">${escapeHtml(formatDuration(ms))}</span>${escapeHtml(between)}`,
    ]);
    // Waiting at a gate, or stopped until resumed: shown apart, never counted as work.
    if (sessions > 1)
      rows.push([
        "between sessions",
        `<span id="between-sessions">${escapeHtml(formatDuration(betweenMs))}</span> (waiting for a decision or a resume, not counted as active)`,
      ]);
  }
  const totals = model.totals;
  const made = describeMade(totals.made);
  rows.push([
    "spent",
    `<span id="spent-credits">${escapeHtml(formatNumber(totals.credits))}</span> credits${made ? ` · ${escapeHtml(made)}` : ""} · ${totals.totalTokens} tokens`,
  ]);
  if (totals.savedCredits > 0 || totals.jobsCached > 0)
    rows.push([
      "saved",
      `<span id="saved-credits">${escapeHtml(formatNumber(totals.savedCredits))}</span> credits (${totals.jobsCached} result${totals.jobsCached === 1 ? "" : "s"} from the cache)`,
    ]);
  if (model.estimate)
    rows.push([
      "estimated",
      model.estimate.creditsAtMost !== undefined
        ? `between <span id="estimated-credits">${escapeHtml(formatNumber(model.estimate.credits))}</span> and ${escapeHtml(formatNumber(model.estimate.creditsAtMost))} credits`
        : `<span id="estimated-credits">${escapeHtml(formatNumber(model.estimate.credits))}</span> credits${model.estimate.complete ? "" : " and more (some costs were known only at run time)"}`,
    ]);
  rows.push([
    "jobs",
    escapeHtml(
      `${totals.jobsSubmitted} submitted · ${totals.jobsReattached} re-attached · ${totals.jobsCached} from cache`,
    ),
  ]);
  if (model.runId) rows.push(["run id", `<span class="mono">${escapeHtml(model.runId)}</span>`]);
  const inputs =
    Object.keys(model.inputs).length === 0
      ? ""
      : `<details class="inputs" open><summary>inputs</summary><pre>${jsonBlock(model.inputs)}</pre></details>`;
  return `<header class="header"><h1>${escapeHtml(model.name)}</h1><p class="status-line"><span class="badge ${escapeHtml(model.status)}" id="run-status">${escapeHtml(model.status)}</span> ${escapeHtml(model.exitReason ?? "")}</p><dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join("")}</dl>${inputs}</header>`;
}

/**
 * The report's sections (header, errors, gates, storyboard, result, timeline, costs, chats)
 * without the document around them, for a page that embeds the report (the studio). Its
 * media are referenced by paths relative to the run directory; it needs {@link STYLES} and,
 * for the clips' players, {@link PAGE_SCRIPT}.
 * @example const html = renderReportBody(buildModel(readRun("runs/x")));
 */
export function renderReportBody(model: ReportModel): string {
  return [
    renderHeader(model),
    renderErrors(model),
    renderApprovals(model),
    renderImages(model),
    renderSounds(model),
    renderStoryboard(model),
    renderFinal(model),
    renderTimeline(model),
    renderCosts(model),
    renderChats(model),
  ].join("\n");
}

/**
 * The whole report page: one self-contained HTML document (inline CSS and one small inline
 * script, no network), media referenced by paths relative to the run directory.
 * @example const html = renderPage(buildModel(readRun("runs/x")));
 */
export function renderPage(model: ReportModel): string {
  const body = renderReportBody(model);
  const note = model.inProgress ? " (so far: the run has not ended)" : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(STYLES, PAGE_SCRIPT))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(`${model.name} — ${model.status} — reelsmith report`)}</title>
<style>${STYLES}</style>
</head>
<body>
<main>
${body}
<script>${PAGE_SCRIPT}</script>
<footer>reelsmith report generated ${escapeHtml(model.generatedAt)}${escapeHtml(note)}. Rebuild it any time with <code>reelsmith report &lt;run-dir&gt;</code>.</footer>
</main>
</body>
</html>
`;
}
