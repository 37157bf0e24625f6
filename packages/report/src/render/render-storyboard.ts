import type { ReportModel, StoryboardCard, TakeView } from "../model/report-model.js";
import { escapeHtml, formatNumber, relativeUrl } from "./escape.js";
import { thumbnailsHtml } from "./render-approvals.js";

/** One take of a retaken clip: its poster frame, number, prompt and cost; the picked one marked. */
function takeHtml(take: TakeView, label: string): string {
  const name = `take ${take.take}`;
  const thumb = take.thumbnail?.exists
    ? `<img class="thumb" src="${relativeUrl(take.thumbnail.relative)}" alt="${escapeHtml(`poster frame of ${label}, ${name}`)}" loading="lazy" decoding="async" width="120" height="68">`
    : `<div class="thumb none">${escapeHtml(take.status === "succeeded" ? "no clip" : take.status)}</div>`;
  const link = take.clip?.exists
    ? `<a class="file mono" href="${relativeUrl(take.clip.relative)}">${escapeHtml(take.clip.relative)}</a>`
    : "";
  const spent =
    take.credits === undefined
      ? ""
      : `<span class="credits">${formatNumber(take.credits)} credits</span>`;
  const tries =
    take.attempts === undefined
      ? ""
      : `<span class="attempts">${take.attempts} attempt${take.attempts === 1 ? "" : "s"}</span>`;
  const picked = take.picked ? `<span class="badge picked">picked</span>` : "";
  return `<figure class="take${take.picked ? " picked" : ""}" data-take="${take.take}">${thumb}<figcaption><span class="label">${escapeHtml(name)}</span>${picked}${spent}${tries}<span class="take-prompt">${escapeHtml(take.prompt ?? "")}</span>${take.error ? `<span class="error-text">${escapeHtml(take.error)}</span>` : ""}${link}</figcaption></figure>`;
}

function cardHtml(card: StoryboardCard): string {
  const label = card.index === undefined ? card.step : `${card.step} #${card.index}`;
  const thumb = card.thumbnail?.exists
    ? `<img class="thumb" src="${relativeUrl(card.thumbnail.relative)}" alt="${escapeHtml(`poster frame of ${label}`)}" loading="lazy" decoding="async" width="240" height="135">`
    : `<div class="thumb none">${escapeHtml(card.status === "failed" ? "failed" : card.status === "succeeded" ? "no clip" : card.status)}</div>`;
  const facts = [card.model, card.size, card.seconds].filter(Boolean);
  const meta: string[] = [];
  if (card.jobId) meta.push(`<dt>job</dt><dd class="mono">${escapeHtml(card.jobId)}</dd>`);
  // A retaken clip: the attempts of the take it shows; each take says its own below.
  meta.push(
    `<dt>${card.takes ? "attempts (this take)" : "attempts"}</dt><dd>${card.attempts}</dd>`,
  );
  if (card.worker) meta.push(`<dt>worker</dt><dd class="mono">${escapeHtml(card.worker)}</dd>`);
  if (card.credits !== undefined)
    meta.push(`<dt>spent</dt><dd class="credits">${formatNumber(card.credits)}</dd>`);
  if (card.savedCredits)
    meta.push(`<dt>saved</dt><dd class="saved">${formatNumber(card.savedCredits)}</dd>`);
  const player =
    card.clip?.exists === true
      ? `<details class="play" data-clip="${relativeUrl(card.clip.relative)}"><summary>play clip${card.duration === undefined ? "" : ` (${escapeHtml(card.duration)} s)`}</summary><a class="file mono" href="${relativeUrl(card.clip.relative)}">${escapeHtml(card.clip.relative)}</a></details>`
      : "";
  const error = card.error ? `<p class="error-text">${escapeHtml(card.error)}</p>` : "";
  const takes = card.takes
    ? `<div class="takes" aria-label="${escapeHtml(`takes of ${label}`)}">${card.takes.map((take) => takeHtml(take, label)).join("")}</div>`
    : "";
  return `<article class="card ${escapeHtml(card.status)}${card.takes ? " retaken" : ""}" data-step="${escapeHtml(card.step)}"${card.index === undefined ? "" : ` data-index="${card.index}"`}>${thumb}<header><span class="label">${escapeHtml(label)}</span><span class="badge ${escapeHtml(card.status)}">${escapeHtml(card.status)}</span></header><p class="prompt">${escapeHtml(card.prompt ?? "")}</p><p class="facts">${escapeHtml(facts.join(" · "))}</p><dl>${meta.join("")}</dl>${player}${takes}${error}</article>`;
}

/**
 * Cards from which the browser may skip drawing those off screen (`content-visibility`): a
 * long storyboard stays fast; a short one is drawn whole (a printout or a full-page
 * screenshot shows every card).
 */
const MANY_CARDS = 48;

/** The storyboard grid: one card per clip (video step or fan-out item). */
export function renderStoryboard(model: ReportModel): string {
  if (model.cards.length === 0) return "";
  return `<section id="storyboard"><h2>Storyboard <small>${model.cards.length} clip${model.cards.length === 1 ? "" : "s"}</small></h2><div class="grid${model.cards.length > MANY_CARDS ? " many" : ""}">${model.cards.map(cardHtml).join("")}</div></section>`;
}

/** The images the run's media steps made (character sheets, keyframes), step by step. */
export function renderImages(model: ReportModel): string {
  if (model.madeImages.length === 0) return "";
  const steps = model.madeImages
    .map(
      ({ step, files }) =>
        `<div class="made" data-step="${escapeHtml(step)}"><h3 class="mono">${escapeHtml(step)}</h3>${thumbnailsHtml(files)}</div>`,
    )
    .join("");
  return `<section id="images"><h2>Images <small>${model.madeImages.reduce((sum, entry) => sum + entry.files.length, 0)}</small></h2>${steps}</section>`;
}

/** The sounds the run's media steps made (a narration per scene), each with a player. */
export function renderSounds(model: ReportModel): string {
  if (model.madeSounds.length === 0) return "";
  const steps = model.madeSounds
    .map(
      ({ step, files }) =>
        `<div class="made" data-step="${escapeHtml(step)}"><h3 class="mono">${escapeHtml(step)}</h3><ol class="sounds">${files
          .map(
            (file) =>
              `<li><audio controls preload="none" src="${relativeUrl(file.relative)}"></audio> <span class="mono">${escapeHtml(file.relative)}</span></li>`,
          )
          .join("")}</ol></div>`,
    )
    .join("");
  const count = model.madeSounds.reduce((sum, entry) => sum + entry.files.length, 0);
  return `<section id="sounds"><h2>Sound <small>${count}</small></h2>${steps}</section>`;
}

/** The final video(s) with a player, and the run's pictures (contact sheet, posters). */
export function renderFinal(model: ReportModel): string {
  if (model.finalVideos.length === 0 && model.finalImages.length === 0) return "";
  const videos = model.finalVideos
    .map(
      (file) =>
        `<figure><video class="final" controls preload="metadata" playsinline${file.poster?.exists ? ` poster="${relativeUrl(file.poster.relative)}"` : ""} src="${relativeUrl(file.relative)}"></video><figcaption class="mono">${escapeHtml(file.relative)}</figcaption></figure>`,
    )
    .join("");
  const images = model.finalImages
    .map(
      (file) =>
        `<figure><a href="${relativeUrl(file.relative)}"><img class="sheet" src="${relativeUrl(file.relative)}" alt="${escapeHtml(file.relative)}" loading="lazy"></a><figcaption class="mono">${escapeHtml(file.relative)}</figcaption></figure>`,
    )
    .join("");
  return `<section id="final"><h2>Result</h2><div class="final-media">${videos}${images}</div></section>`;
}
