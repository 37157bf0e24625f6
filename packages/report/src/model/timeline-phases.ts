import { kindsByName } from "@reelsmith/runner/kinds";
import type { TimelinePhase } from "./report-model.js";
import type { Marks } from "./timeline-marks.js";

const registry = kindsByName();

/**
 * What a step's kind calls its running phase, as run.start told it (else as the built-in
 * kind of that name would, for runs that did not tell); "running" when it says nothing.
 * @example const work = workOf(kinds.get("final")); // what its kind calls its work
 */
export function workOf(step: { kind: string; report?: { work?: string } } | undefined): string {
  return step?.report?.work ?? registry.get(step?.kind ?? "")?.report?.work ?? "running";
}

/**
 * A unit's phases: a job's (waiting for a slot, submitted, polling, downloading), or its work
 * (after its slot, if it took one). A unit still running ends at `now`.
 * @example phasesOf("ffmpeg", { started: 0, ended: 5, ran: true }, 9) // [{ phase: "work", work: "ffmpeg", start: 0, end: 5 }]
 */
export function phasesOf(work: string, marks: Marks, now: number): TimelinePhase[] {
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
