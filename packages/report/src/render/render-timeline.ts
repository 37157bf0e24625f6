import type { ReportModel, TimelinePhase } from "../model/report-model.js";
import { escapeHtml, formatDuration } from "./escape.js";

const JOB_PHASES: Record<Exclude<TimelinePhase["phase"], "work">, string> = {
  waiting: "waiting for a slot",
  submitted: "submitted (queued at the service)",
  polling: "polling (in progress)",
  downloading: "downloading",
};

/** Colours a kind's work is drawn in: one per work word, the same word the same colour. */
const WORK_COLOURS = 6;

/** A phase's classes (its colour) and its words, a unit's work named as its kind names it. */
function phaseLook(phase: TimelinePhase): { classes: string; text: string } {
  if (phase.phase !== "work") return { classes: `p-${phase.phase}`, text: JOB_PHASES[phase.phase] };
  const work = phase.work ?? "running";
  const name = work.replace(/[^a-z0-9-]/gi, "-").toLowerCase();
  return { classes: `p-work w-${colourOf(work)} p-${name}`, text: work };
}

function colourOf(work: string): number {
  let hash = 0;
  for (const char of work) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return hash % WORK_COLOURS;
}

const WIDTH = 1000;
const LABEL = 170;
const ROW = 16;
const AXIS = 22;

function tickStep(spanMs: number): number {
  const steps = [
    100, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
    1_800_000, 3_600_000,
  ];
  return steps.find((step) => spanMs / step <= 10) ?? 7_200_000;
}

function tickLabel(ms: number, step: number): string {
  if (step < 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (step < 60_000) return `${Math.round(ms / 1000)} s`;
  return formatDuration(ms);
}

/**
 * The timeline as one inline SVG (no script, nothing to fetch): one row (`g.bar`) per plain
 * step and per fan-out item, each phase a rect with its own colour and a tooltip.
 */
export function renderTimeline(model: ReportModel): string {
  const { rows, start, end, resumes } = model.timeline;
  if (rows.length === 0) return "";
  const span = Math.max(1, end - start);
  const scale = (WIDTH - LABEL - 4) / span;
  const x = (time: number) => LABEL + (time - start) * scale;
  const height = AXIS + rows.length * ROW + 4;
  const parts: string[] = [];
  const step = tickStep(span);
  for (let t = 0; t <= span; t += step) {
    const at = x(start + t).toFixed(1);
    parts.push(
      `<line class="tick" x1="${at}" x2="${at}" y1="${AXIS - 4}" y2="${height}"/><text class="tick-label" x="${at}" y="${AXIS - 8}">${escapeHtml(tickLabel(t, step))}</text>`,
    );
  }
  for (const resume of resumes) {
    const at = x(resume).toFixed(1);
    parts.push(
      `<line class="resume" x1="${at}" x2="${at}" y1="${AXIS - 4}" y2="${height}"><title>resumed here</title></line>`,
    );
  }
  rows.forEach((row, position) => {
    const y = AXIS + position * ROW;
    const label = row.index === undefined ? row.step : `${row.step} #${row.index}`;
    const rects = row.phases
      .map((phase) => {
        const left = x(phase.start);
        const width = Math.max(1.5, (phase.end - phase.start) * scale);
        const look = phaseLook(phase);
        return `<rect class="${escapeHtml(look.classes)}" x="${left.toFixed(1)}" y="${y + 2}" width="${width.toFixed(1)}" height="${ROW - 4}"><title>${escapeHtml(`${label}: ${look.text} ${formatDuration(phase.end - phase.start)}`)}</title></rect>`;
      })
      .join("");
    parts.push(
      `<g class="bar ${escapeHtml(row.status)}" data-step="${escapeHtml(row.step)}"${row.index === undefined ? "" : ` data-index="${row.index}"`}><text class="row-label" x="4" y="${y + ROW - 4}">${escapeHtml(label.length > 26 ? `${label.slice(0, 25)}…` : label)}</text>${rects}</g>`,
    );
  });
  // The job phases, then each kind of work the rows show.
  const works = [
    ...new Set(
      rows.flatMap((row) => row.phases.filter((p) => p.phase === "work").map((p) => p.work)),
    ),
  ];
  const legend = [
    ...Object.entries(JOB_PHASES).map(([phase, text]) => ({ classes: `p-${phase}`, text })),
    ...works.map((work) =>
      phaseLook({ phase: "work", ...(work ? { work } : {}), start: 0, end: 0 }),
    ),
  ]
    .map(
      (look) =>
        `<li><span class="swatch ${escapeHtml(look.classes)}"></span>${escapeHtml(look.text)}</li>`,
    )
    .join("");
  return `<section id="timeline"><h2>Timeline <small>${escapeHtml(formatDuration(span))}, ${rows.length} row${rows.length === 1 ? "" : "s"}</small></h2><ul class="legend">${legend}</ul><svg class="gantt" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="timeline of steps and items">${parts.join("")}</svg></section>`;
}
