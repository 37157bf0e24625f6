import type { JournalWriter } from "./journal.js";
import type { ItemState } from "./journal-state.js";

/**
 * The journal as a step kind sees it: facts about its own item, written (and fsync'd)
 * before the step acts on them, and the facts a previous attempt of the run left.
 */
export interface StepJournal {
  /**
   * Durably record a fact before acting on it: the promise settles once it is on disk.
   * @example await journal.record("video.submitted", { jobId: job.id }); // then poll
   */
  record(name: string, data: Record<string, unknown>): Promise<void>;
  /**
   * A fact recorded earlier for this item (this run or the run being resumed).
   * @example const previous = journal.recall("video.submitted")?.jobId;
   */
  recall(name: string): Record<string, unknown> | undefined;
}

/** Creates the StepJournal of one item (`index` undefined for a step without `for_each`). */
export function createStepJournal(
  journal: JournalWriter,
  step: string,
  index: number | undefined,
  previous: ItemState | undefined,
): StepJournal {
  const facts: Record<string, Record<string, unknown>> = { ...(previous?.facts ?? {}) };
  return {
    record(name, data) {
      facts[name] = data;
      return journal.append({
        type: "fact",
        step,
        ...(index === undefined ? {} : { index }),
        name,
        data,
      });
    },
    recall(name) {
      return facts[name];
    },
  };
}
