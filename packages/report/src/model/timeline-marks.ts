import type { RunEvent, RunEventOf } from "@reelsmith/runner";

/** A step as run.start tells it (its kind, whether it fans out, how the report shows it). */
export type StepInfo = RunEventOf<"run.start">["steps"][number];

/** The moments of one unit (a step or an item) in one session, in ms since the epoch. */
export interface Marks {
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

/** What the event log says of each unit's moments, for the timeline's rows. */
export interface TimelineMarks {
  /** Every step by id, in the order the sessions told them. */
  kinds: Map<string, StepInfo>;
  /** Each unit's marks in its latest session that ran it. */
  rows: { step: string; index?: number; marks: Marks }[];
  /** When each resumed session started. */
  resumes: number[];
  /** The first and the last event's time (infinite when there was none). */
  first: number;
  last: number;
}

const keyOf = (step: string, index: number | undefined) => `${step}\u0000${index ?? ""}`;

/** The marks being gathered: the current session's, and what earlier sessions left. */
interface Gathering {
  kinds: Map<string, StepInfo>;
  rows: Map<string, { step: string; index?: number; marks: Marks }>;
  resumes: number[];
  session: Map<string, Marks>;
  stepStarts: Map<string, number>;
}

/**
 * Each unit's moments from the event log: queued, started, its slot, its job's (submitted,
 * in progress, completed, saved) and its end. A unit that ran again in a resumed session
 * keeps its latest run's marks.
 * @example const { rows, first, last } = timelineMarks(events, steps);
 */
export function timelineMarks(
  events: readonly RunEvent[],
  steps: readonly StepInfo[],
): TimelineMarks {
  const gathering: Gathering = {
    kinds: new Map(steps.map((s) => [s.id, s])),
    rows: new Map(),
    resumes: [],
    session: new Map(),
    stepStarts: new Map(),
  };
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const event of events) {
    const time = Date.parse(event.time);
    if (!Number.isFinite(time)) continue;
    first = Math.min(first, time);
    last = Math.max(last, time);
    mark(gathering, event, time);
  }
  commit(gathering);
  const { kinds, rows, resumes } = gathering;
  return { kinds, rows: [...rows.values()], resumes, first, last };
}

/** The session's marks become the rows (a unit that did not run in it keeps its earlier row). */
function commit(gathering: Gathering): void {
  for (const [key, marks] of gathering.session) {
    if (!marks.ran && gathering.rows.has(key)) continue;
    const [step, index] = key.split("\u0000") as [string, string];
    gathering.rows.set(key, { step, ...(index === "" ? {} : { index: Number(index) }), marks });
  }
  gathering.session = new Map();
  gathering.stepStarts.clear();
}

/** A unit's marks in the current session, made on first use. */
function marksOf(gathering: Gathering, step: string, index: number | undefined): Marks {
  const key = keyOf(step, index);
  let marks = gathering.session.get(key);
  if (!marks) {
    marks = { ran: false };
    gathering.session.set(key, marks);
  }
  return marks;
}

/** What one event marks. */
function mark(gathering: Gathering, event: RunEvent, time: number): void {
  const { kinds } = gathering;
  switch (event.type) {
    case "run.start":
      commit(gathering);
      if (event.resumed) gathering.resumes.push(time);
      for (const step of event.steps) if (!kinds.has(step.id)) kinds.set(step.id, step);
      break;
    case "step.start": {
      gathering.stepStarts.set(event.step, time);
      if (!kinds.get(event.step)?.fanOut) {
        const marks = marksOf(gathering, event.step, undefined);
        marks.queued = marks.started = time;
        marks.ran = true;
      }
      break;
    }
    case "item.start": {
      const marks = marksOf(gathering, event.step, event.index);
      marks.queued = gathering.stepStarts.get(event.step) ?? time;
      marks.started = time;
      break;
    }
    case "step.request": {
      const marks = marksOf(gathering, event.step, event.index);
      marks.ran = true;
      marks.started ??= time;
      marks.queued ??= marks.started;
      break;
    }
    case "unit.progress":
      markProgress(marksOf(gathering, event.step, event.index), event, time);
      break;
    case "item.end": {
      const marks = marksOf(gathering, event.step, event.index);
      marks.ended = time;
      marks.status = event.status;
      break;
    }
    case "step.end":
    case "step.fail":
    case "step.skip":
      if (!kinds.get(event.step)?.fanOut)
        markStepEnd(marksOf(gathering, event.step, undefined), event, time);
      break;
  }
}

/** Any kind's job: when a slot was taken, the job submitted, running, done, saved. */
function markProgress(marks: Marks, event: RunEventOf<"unit.progress">, time: number): void {
  if (event.stage === "slot") marks.slot = time;
  else if (event.stage === "submitted") {
    marks.submitted = time;
    marks.slot ??= time;
    marks.ran = true;
  } else if (event.stage === "status") {
    if (event.status === "in_progress") marks.inProgress ??= time;
    if (event.status === "completed") marks.completed = time;
  } else if (event.stage === "saved") marks.downloaded = time;
}

/** How a plain step ended: succeeded (or reused), failed or skipped. */
function markStepEnd(
  marks: Marks,
  event: RunEventOf<"step.end" | "step.fail" | "step.skip">,
  time: number,
): void {
  const status =
    event.type === "step.end" ? "succeeded" : event.type === "step.fail" ? "failed" : "skipped";
  marks.ended = time;
  marks.status = event.type === "step.end" && event.reused ? "reused" : status;
  if (event.type === "step.skip") marks.started ??= time;
}
