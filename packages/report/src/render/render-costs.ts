import type { RunEstimate, RunTotals, StepEstimate } from "@reelsmith/runner";
import { describeMade, describeOtherUnits } from "@reelsmith/runner/runs";
import type { ReportModel } from "../model/report-model.js";
import { escapeHtml, formatDuration, formatNumber, relativeUrl } from "./escape.js";

function estimateCell(estimate: StepEstimate | RunEstimate | undefined): string {
  if (!estimate) return `<td class="num estimated"></td>`;
  if ("complete" in estimate) {
    const credits = `${formatNumber(estimate.credits)}${estimate.complete ? "" : "+"}`;
    // The run's totals in other units, beside its credits and never added to them.
    const units = Object.entries(estimate.otherUnits ?? {})
      .filter(([, total]) => total.amount !== 0 || !total.complete)
      .map(([unit, total]) => `${total.amount}${total.complete ? "" : "+"} ${unit}`);
    return `<td class="num estimated">${escapeHtml(credits)}${besideCredits(units)}</td>`;
  }
  // A step priced in a unit with no rate to credits is estimated in it (`0.15 usd`).
  // Exactly, as the closing table says its amounts (cents are not rounded to 2 places).
  const figure = (value: number) =>
    estimate.unit === undefined ? formatNumber(value) : `${value} ${estimate.unit}`;
  const text =
    estimate.credits !== undefined
      ? figure(estimate.credits)
      : estimate.perUnit !== undefined
        ? `${figure(estimate.perUnit)}/item`
        : "?";
  // A step whose units have parts in other units (a voice in usd, its words in credits).
  const parts = Object.entries(estimate.otherUnits ?? {}).map(([unit, part]) =>
    part.amount !== undefined
      ? `${part.amount} ${unit}`
      : part.perUnit !== undefined
        ? `${part.perUnit} ${unit}/item`
        : `? ${unit}`,
  );
  return `<td class="num estimated">${escapeHtml(text)}${besideCredits(parts)}</td>`;
}

/** Amounts in other units beside a credit figure (`+ 0.6 usd`). */
function besideCredits(amounts: readonly string[]): string {
  return amounts
    .map((amount) => ` <span class="other-unit">+ ${escapeHtml(amount)}</span>`)
    .join("");
}

/** What was spent in units that are not credits, beside the credits (`+ 0.05 usd`). */
function apart(totals: RunTotals): string {
  const spent = Object.entries(totals.otherUnits ?? {}).filter(([, amount]) => amount !== 0);
  return besideCredits(spent.map(([unit, amount]) => `${amount} ${unit}`));
}

function cells(totals: RunTotals, estimate: StepEstimate | RunEstimate | undefined): string {
  return `<td class="num made">${escapeHtml(describeMade(totals.made))}</td><td class="num spent">${formatNumber(totals.credits)}${apart(totals)}</td><td class="num saved">${formatNumber(totals.savedCredits)}</td>${estimateCell(estimate)}<td class="num">${totals.promptTokens}</td><td class="num">${totals.completionTokens}</td><td class="num">${totals.totalTokens}</td>`;
}

/**
 * The cost table: one row per step (what it made, credits, tokens; sub-pipelines started by a
 * step's tools are counted in that step and listed under it), then the run's total; what was
 * spent in units that are not credits is shown beside the credits and said under the table.
 */
export function renderCosts(model: ReportModel): string {
  const rows = model.steps.map((step) => {
    const main = `<tr class="step" data-step="${escapeHtml(step.id)}"><th scope="row">${escapeHtml(step.id)}</th><td>${escapeHtml(step.kind)}${step.fanOut ? ` ×${step.items}` : ""}</td><td><span class="badge ${escapeHtml(step.status)}">${escapeHtml(step.status)}</span></td><td class="num">${step.durationMs === undefined ? "" : escapeHtml(formatDuration(step.durationMs))}</td>${cells(step.totals, step.estimate)}</tr>`;
    const subs = step.subRuns.map(
      (sub) =>
        `<tr class="sub"><th scope="row">↳ ${sub.report ? `<a href="${relativeUrl(sub.report.relative)}">${escapeHtml(sub.name)}</a>` : escapeHtml(sub.name)}</th><td>${escapeHtml(sub.pipeline ?? "sub-pipeline")}</td><td><span class="badge ${escapeHtml(sub.status)}">${escapeHtml(sub.status)}</span></td><td class="num">included above</td>${cells(sub.totals, undefined)}</tr>`,
    );
    return main + subs.join("");
  });
  // In the CLI's closing table's words: never added to the credits.
  const words = describeOtherUnits(model.totals.otherUnits);
  const otherUnits = words ? `<p class="other-units">${escapeHtml(words)}</p>` : "";
  return `<section id="costs"><h2>Cost</h2><table class="costs"><thead><tr><th>step</th><th>kind</th><th>status</th><th class="num">time</th><th class="num">made</th><th class="num">spent</th><th class="num">saved</th><th class="num">estimated</th><th class="num">prompt tokens</th><th class="num">completion tokens</th><th class="num">tokens</th></tr></thead><tbody>${rows.join("")}</tbody><tfoot><tr class="total"><th scope="row">total</th><td></td><td></td><td class="num"></td>${cells(model.totals, model.estimate)}</tr></tfoot></table>${otherUnits}<p class="note">Spent is what the service charged; saved is the price of results the cache served; estimated is what the run was expected to cost before it began. Tokens are those the run paid for: a chat answer served from the cache counts 0 here and in its chat section, which shows the tokens it saved. Sub-pipelines called as tools are counted in the step whose tool called them (rows marked ↳).</p></section>`;
}
