import type { JournalRecord } from "../journal/journal-record.js";
import { foldJournal, type RunState } from "../journal/journal-state.js";
import { takeRecords } from "../takes/take-state.js";

/** The folders of the records a run's features journal beside the journal's own. */
const RUN_FOLDERS = [takeRecords];

/**
 * Replays a run's journal records into the state of each step and item: the journal's own
 * records, and the takes' (`take.start`, `take`, `take.pick`) folded by the takes. Given
 * `onto`, a state replayed before, only the records appended since are folded into it.
 * @example const state = replayJournal(readJournal(file)); state.steps.get("clips")?.items.get(2)
 */
export function replayJournal(records: readonly JournalRecord[], onto?: RunState): RunState {
  return foldJournal(records, RUN_FOLDERS, onto);
}
