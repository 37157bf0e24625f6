import type { ApprovalGate, ReportModel, RunFile } from "../model/report-model.js";
import { escapeHtml, formatNumber, jsonBlock, relativeUrl } from "./escape.js";

/** Thumbnails of image files (a keyframe, a character sheet), each linking to the file. */
export function thumbnailsHtml(files: readonly RunFile[]): string {
  return `<div class="thumbs">${files
    .map(
      (file) =>
        `<figure><a href="${relativeUrl(file.relative)}"><img class="thumb" src="${relativeUrl(file.relative)}" alt="${escapeHtml(file.relative)}" loading="lazy"></a><figcaption class="mono">${escapeHtml(file.relative)}</figcaption></figure>`,
    )
    .join("")}</div>`;
}

const LABELS: Record<ApprovalGate["state"], string> = {
  pending: "not reached",
  waiting: "waiting",
  approved: "approved",
  rejected: "rejected",
  timed_out: "timed out",
};

function gateHtml(gate: ApprovalGate): string {
  const facts: string[] = [];
  if (gate.by) facts.push(`<dt>by</dt><dd class="decided-by">${escapeHtml(gate.by)}</dd>`);
  if (gate.at) facts.push(`<dt>at</dt><dd class="decided-at">${escapeHtml(gate.at)}</dd>`);
  if (gate.note) facts.push(`<dt>note</dt><dd class="note-text">${escapeHtml(gate.note)}</dd>`);
  if (gate.since && gate.state === "waiting")
    facts.push(`<dt>since</dt><dd>${escapeHtml(gate.since)}</dd>`);
  if (gate.deadline) facts.push(`<dt>until</dt><dd>${escapeHtml(gate.deadline)}</dd>`);
  const shows = gate.show
    .map((value, index) => {
      const images = gate.showImages?.[index];
      // What it is: its pictures counted, or which of the values shown.
      const what = images
        ? `${images.length} image${images.length === 1 ? "" : "s"}`
        : gate.show.length === 1
          ? "shown"
          : `shown ${index + 1} of ${gate.show.length}`;
      return `<details class="shown" open><summary>${escapeHtml(what)}</summary>${images ? thumbnailsHtml(images) : `<pre>${jsonBlock(value)}</pre>`}</details>`;
    })
    .join("");
  return `<article class="gate ${escapeHtml(gate.state)}" data-step="${escapeHtml(gate.step)}"><header><span class="label">${escapeHtml(gate.step)}</span><span class="badge ${escapeHtml(gate.state)}">${escapeHtml(LABELS[gate.state])}</span></header><p class="message">${escapeHtml(gate.message)}</p>${facts.length > 0 ? `<dl>${facts.join("")}</dl>` : ""}${shows}</article>`;
}

/** What approving starts, while the run waits: the steps behind the gates and their cost. */
function nextHtml(model: ReportModel): string {
  const next = model.next;
  if (!next) return "";
  const rows = Object.entries(next.steps).map(([id, step]) => {
    const held = step.cached ? ` (${step.cached} from the cache, free)` : "";
    const figure =
      step.credits !== undefined && step.creditsAtMost !== undefined
        ? `${step.units ?? 1} × between ${formatNumber(step.credits)} and ${formatNumber(step.creditsAtMost)} in all${held}`
        : step.credits !== undefined && step.perUnit === undefined
          ? `${step.units ?? 1} for ${formatNumber(step.credits)}${held}`
          : step.credits !== undefined
            ? `${step.units ?? 1} × ${formatNumber(step.perUnit ?? 0)} = ${formatNumber(step.credits)}${held}`
            : step.perUnit !== undefined
              ? `${formatNumber(step.perUnit)} per item × N`
              : "unknown until it runs";
    return `<li><span class="mono">${escapeHtml(id)}</span> ${escapeHtml(figure)}</li>`;
  });
  const total =
    next.creditsAtMost !== undefined
      ? `between ${formatNumber(next.credits)} and ${formatNumber(next.creditsAtMost)}`
      : `${formatNumber(next.credits)}${next.complete ? "" : "+"}`;
  return `<p class="next">After approval: <b id="next-credits">${escapeHtml(total)}</b> credits more</p>${rows.length > 0 ? `<ul class="next-steps">${rows.join("")}</ul>` : ""}`;
}

/** The run's gates: each one's question, what it shows, and its decision (or `waiting`). */
export function renderApprovals(model: ReportModel): string {
  if (model.approvals.length === 0) return "";
  return `<section id="approvals"><h2>Approval</h2>${nextHtml(model)}<div class="gates">${model.approvals.map(gateHtml).join("")}</div></section>`;
}
