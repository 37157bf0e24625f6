import type { RunEvent, RunEventOf } from "@reelsmith/runner";
import { kindsByName } from "@reelsmith/runner/kinds";
import type { ReportModel, TimelinePhase, TimelineRow } from "./report-model.js";

type StepInfo = RunEventOf<"run.start">["steps"][number];

/** The moments of one unit (a step or an item) in one session, in ms since the epoch. */
interface Marks {
  queued?: number;
  started?: number;
  slot?: number;
  submitted?: number;
  inProgress?: number;
  completed?: number;
  downloaded?: number;
  ended?: number;
  status?: string;
  ran: boolean;
}

const keyOf = (step: string, index: number | undefined) => `${step}\u0000${index ?? ""}`;

/**
 * Builds the timeline (Gantt) from the event log: one row per plain step and per fan-out
 * item, each cut into phases — waiting for a slot, submitted (queued at the service),
 * polling (in progress), downloading, and the work of any other unit, named by its kind. A unit that ran
 * again in a resumed session shows its latest run; one still running ends at the last event.
 * @example const timeline = buildTimeline(events, steps);
 */
export function buildTimeline(
  events: readonly RunEvent[],
  steps: readonly StepInfo[],
): ReportModel["timeline"] {
  const kinds = new Map(steps.map((s) => [s.id, s]));
  const rows = new Map<string, { step: string; index?: number; marks: Marks }>();
  const resumes: number[] = [];
  let session = new Map<string, Marks>();
  const stepStarts = new Map<string, number>();
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const marksOf = (step: string, index: number | undefined): Marks => {
    const key = keyOf(step, index);
    let marks = session.get(key);
    if (!marks) {
      marks = { ran: false };
      session.set(key, marks);
    }
    return marks;
  };
  const commit = () => {
    for (const [key, marks] of session) {
      if (!marks.ran && rows.has(key)) continue;
      const [step, index] = key.split("\u0000") as [string, string];
      rows.set(key, { step, ...(index === "" ? {} : { index: Number(index) }), marks });
    }
    session = new Map();
    stepStarts.clear();
  };
  for (const event of events) {
    const time = Date.parse(event.time);
    if (!Number.isFinite(time)) continue;
    first = Math.min(first, time);
    last = Math.max(last, time);
    switch (event.type) {
      case "run.start":
        commit();
        if (event.resumed) resumes.push(time);
        for (const step of event.steps) if (!kinds.has(step.id)) kinds.set(step.id, step);
        break;
      case "step.start": {
        stepStarts.set(event.step, time);
        if (!kinds.get(event.step)?.fanOut) {
          const marks = marksOf(event.step, undefined);
          marks.queued = marks.started = time;
          marks.ran = true;
        }
        break;
      }
      case "item.start": {
        const marks = marksOf(event.step, event.index);
        marks.queued = stepStarts.get(event.step) ?? time;
        marks.started = time;
        break;
      }
      case "step.request": {
        const marks = marksOf(event.step, event.index);
        marks.ran = true;
        marks.started ??= time;
        marks.queued ??= marks.started;
        break;
      }
      case "unit.progress": {
        // Any kind's job: when a slot was taken, the job submitted, running, done, saved.
        const marks = marksOf(event.step, event.index);
        if (event.stage === "slot") marks.slot = time;
        else if (event.stage === "submitted") {
          marks.submitted = time;
          marks.slot ??= time;
          marks.ran = true;
        } else if (event.stage === "status") {
          if (event.status === "in_progress") marks.inProgress ??= time;
          if (event.status === "completed") marks.completed = time;
        } else if (event.stage === "saved") marks.downloaded = time;
        break;
      }
      case "item.end": {
        const marks = marksOf(event.step, event.index);
        marks.ended = time;
        marks.status = event.status;
        break;
      }
      case "step.end":
      case "step.fail":
      case "step.skip": {
        const status =
          event.type === "step.end"
            ? "succeeded"
            : event.type === "step.fail"
              ? "failed"
              : "skipped";
        if (!kinds.get(event.step)?.fanOut) {
          const marks = marksOf(event.step, undefined);
          marks.ended = time;
          marks.status = event.type === "step.end" && event.reused ? "reused" : status;
          if (event.type === "step.skip") marks.started ??= time;
        }
        break;
      }
    }
  }
  commit();
  const order = [...kinds.keys()];
  const result: TimelineRow[] = [];
  for (const { step, index, marks } of rows.values()) {
    if (marks.started === undefined) continue;
    const kind = kinds.get(step)?.kind ?? "step";
    result.push({
      step,
      ...(index === undefined ? {} : { index }),
      kind,
      status: marks.status ?? (marks.ended === undefined ? "running" : "succeeded"),
      phases: phasesOf(workOf(kinds.get(step)), marks, last),
    });
  }
  result.sort(
    (a, b) => order.indexOf(a.step) - order.indexOf(b.step) || (a.index ?? -1) - (b.index ?? -1),
  );
  return {
    start: Number.isFinite(first) ? first : 0,
    end: Number.isFinite(last) ? last : 0,
    rows: result,
    resumes,
  };
}

/**
 * What a step's kind calls its running phase, as run.start told it (else as the built-in
 * kind of that name would, for runs that did not tell); "running" when it says nothing.
 */
function workOf(step: { kind: string; report?: { work?: string } } | undefined): string {
  return step?.report?.work ?? registry.get(step?.kind ?? "")?.report?.work ?? "running";
}

const registry = kindsByName();

/** A unit's phases: a job's (waiting for a slot, submitted, polling, downloading), or its work (after its slot, if it took one). */
function phasesOf(work: string, marks: Marks, now: number): TimelinePhase[] {
  const end = marks.ended ?? now;
  const phases: TimelinePhase[] = [];
  const add = (phase: TimelinePhase["phase"], start: number | undefined, until: number) => {
    if (start === undefined) return;
    phases.push({
      phase,
      ...(phase === "work" ? { work } : {}),
      start,
      end: Math.max(start, until),
    });
  };
  const queued = marks.queued ?? marks.started ?? end;
  if (marks.submitted !== undefined) {
    const slot = marks.slot ?? marks.submitted;
    add("waiting", queued, slot);
    const polling = marks.inProgress ?? marks.completed;
    add("submitted", slot, polling ?? end);
    if (polling !== undefined) add("polling", polling, marks.completed ?? end);
    if (marks.completed !== undefined) add("downloading", marks.completed, marks.downloaded ?? end);
    return phases;
  }
  // A unit that took a slot of its queue without a job at the service waited until then.
  const started = marks.slot ?? marks.started ?? queued;
  if (started > queued) add("waiting", queued, started);
  add("work", started, end);
  return phases;
}
