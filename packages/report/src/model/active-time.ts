import type { JournalRecord } from "@reelsmith/runner/runs";

/** How long a run's processes worked on it, apart from the time between commands. */
export interface ActiveTime {
  /** The sum of the sessions' lengths, in ms. */
  ms: number;
  /** How many sessions (the run, then each resume, retake or pick) worked on it. */
  sessions: number;
  /**
   * The time between its sessions, in ms: waiting at a gate for a decision, or stopped until
   * resumed. Never counted as work.
   */
  betweenMs: number;
}

/**
 * The time the run was worked on, from its journal: each session runs from its `run.start`
 * or `run.resume` record to its `run.end` (or, stopped, to the last record it wrote), and the
 * sessions' lengths are added. What is written between sessions (a gate's decision) is not
 * work: the time from one session's end to the next one's start is counted apart
 * (`betweenMs`). Wall time (first start to last end) counts both. Undefined without times.
 *
 * @example
 * activeTime(readJournal(runDir)); // { ms: 5_012, sessions: 2, betweenMs: 21_700 }
 */
export function activeTime(journal: readonly JournalRecord[]): ActiveTime | undefined {
  let ms = 0;
  let betweenMs = 0;
  let sessions = 0;
  let start: number | undefined;
  let last: number | undefined;
  let ended = false;
  const close = () => {
    if (start !== undefined && last !== undefined) ms += Math.max(0, last - start);
  };
  for (const record of journal) {
    const time = record.time ? Date.parse(record.time) : Number.NaN;
    if (!Number.isFinite(time)) continue;
    if (record.type === "run.start" || record.type === "run.resume") {
      close();
      if (last !== undefined) betweenMs += Math.max(0, time - last);
      sessions += 1;
      start = time;
      ended = false;
    } else if (ended) continue; // written between sessions: a decision, not work
    last = time;
    if (record.type === "run.end") ended = true;
  }
  close();
  return sessions === 0 ? undefined : { ms, sessions, betweenMs };
}
