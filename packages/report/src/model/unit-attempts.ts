import type { RunEvent } from "@reelsmith/runner";
import type { JournalRecord } from "@reelsmith/runner/runs";

const SINGLE_ITEM = -1;

/** How many attempts each take of each unit took, as its card and its takes show them. */
export interface UnitAttempts {
  /** Attempts of one take of a unit (`take` 1 is what the run first made); 0 when never tried. */
  of(step: string, index: number | undefined, take?: number): number;
}

/**
 * Counts attempts per take: each session's request of a unit is one, each retry one more, and
 * a retake's attempts are its own (a retaken clip is not "attempts 2" for having two takes).
 * Which take an event belongs to comes from the journal's `take.start` records and their
 * times: an event is of the last take started before it.
 *
 * @example
 * const attempts = unitAttempts(events, journal);
 * attempts.of("clips", 1, 2); // 1: the retake took one attempt
 */
export function unitAttempts(
  events: readonly RunEvent[],
  journal: readonly JournalRecord[],
): UnitAttempts {
  const unit = (step: string, index: number | undefined) => `${step}#${index ?? SINGLE_ITEM}`;
  const takeStarts = new Map<string, { take: number; time: number }[]>();
  for (const record of journal) {
    if (record.type !== "take.start" || typeof record.step !== "string") continue;
    const time = Date.parse(record.time ?? "");
    const take = Number(record.take);
    if (!Number.isFinite(time) || !Number.isInteger(take)) continue;
    const key = unit(record.step, typeof record.index === "number" ? record.index : undefined);
    const starts = takeStarts.get(key) ?? [];
    starts.push({ take, time });
    takeStarts.set(key, starts);
  }
  const takeAt = (key: string, time: string) => {
    const at = Date.parse(time);
    let take = 1;
    for (const start of takeStarts.get(key) ?? []) if (start.time <= at) take = start.take;
    return take;
  };
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.type === "step.request") {
      const key = unit(event.step, event.index);
      const at = `${key}@${takeAt(key, event.time)}`;
      counts.set(at, (counts.get(at) ?? 0) + 1);
    } else if (event.type === "step.retry") {
      const key = unit(event.step, event.item);
      const at = `${key}@${takeAt(key, event.time)}`;
      counts.set(at, (counts.get(at) ?? 1) + 1);
    }
  }
  return { of: (step, index, take = 1) => counts.get(`${unit(step, index)}@${take}`) ?? 0 };
}
