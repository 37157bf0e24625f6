import type { RunEvent } from "@reelsmith/runner";
import type { ReportModel, TimelineRow } from "./report-model.js";
import { type StepInfo, timelineMarks } from "./timeline-marks.js";
import { phasesOf, workOf } from "./timeline-phases.js";

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
  const { kinds, rows, resumes, first, last } = timelineMarks(events, steps);
  const order = [...kinds.keys()];
  const result: TimelineRow[] = [];
  for (const { step, index, marks } of rows) {
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
