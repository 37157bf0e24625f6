import type { JournalRecord } from "@reelsmith/runner";

/** How long a run's processes worked on it, apart from the time between commands. */
export interface ActiveTime {
  /** The sum of the sessions' lengths, in ms. */
  ms: number;
  /** How many sessions (the run, then each resume, retake or pick) worked on it. */
  sessions: number;
}

/**
 * The time the run was worked on, from its journal: each session runs from its `run.start`
 * or `run.resume` record to the last record it wrote (its `run.end`, or wherever it was
 * stopped), and the sessions' lengths are added. Wall time (first start to last end) also
 * counts the hours between `run` and `resume`; this does not. Undefined without times.
 *
 * @example
 * activeTime(readJournal(runDir)); // { ms: 5_012, sessions: 2 }
 */
export function activeTime(journal: readonly JournalRecord[]): ActiveTime | undefined {
  let ms = 0;
  let sessions = 0;
  let start: number | undefined;
  let last: number | undefined;
  const close = () => {
    if (start !== undefined && last !== undefined) ms += Math.max(0, last - start);
  };
  for (const record of journal) {
    const time = record.time ? Date.parse(record.time) : Number.NaN;
    if (!Number.isFinite(time)) continue;
    if (record.type === "run.start" || record.type === "run.resume") {
      close();
      sessions += 1;
      start = time;
    }
    last = time;
  }
  close();
  return sessions === 0 ? undefined : { ms, sessions };
}
