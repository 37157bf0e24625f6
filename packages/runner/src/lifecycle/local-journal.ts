import { join } from "node:path";
import { type Journal, openJournal, readJournal } from "../journal/journal.js";
import type { JournalRecord } from "../journal/journal-record.js";
import type { RunState } from "../journal/journal-state.js";
import { type Ledger, ledgerOf } from "../ledger/ledger.js";
import type { RunJournalStore } from "./run-host.js";

/** A resumed run's journal as the resume read it, and whether the host may go on from it. */
export interface JournalRead {
  records: readonly JournalRecord[];
  /** The records replayed (the run goes on from this state, not a second replay). */
  state?: RunState | undefined;
  /** Read under the run's lock, which the resume holds (the host takes no lock of its own). */
  locked: boolean;
  /**
   * Keep every record in memory (those read and those appended): a session reads the journal
   * again after its own records, and a run with takes at its end, without reading the file.
   */
  keep: boolean;
}

/**
 * A local run's journal store: `journal.jsonl` in the run directory. A resume's records, read
 * under the run's lock, serve its first read (then they go, unless kept); a kept journal also
 * holds every record appended since, so that the run reads the file once.
 * @example const journal = localJournal(() => runDir, { records, locked: true, keep: true });
 */
export function localJournal(
  dir: () => string,
  read: JournalRead | undefined,
): RunJournalStore & { records(): JournalRecord[]; ledger(): Ledger } {
  let file: Journal | undefined;
  const journalFile = () => join(dir(), "journal.jsonl");
  const keep = read?.locked === true && read.keep;
  let known: JournalRecord[] | undefined = read?.locked ? [...read.records] : undefined;
  let replayed = read?.locked ? read.state : undefined;
  const records = (): JournalRecord[] => {
    if (!known) return dir() ? readJournal(journalFile()) : [];
    const all = keep ? [...known] : known;
    if (!keep) known = undefined;
    return all;
  };
  return {
    whole: true,
    ordered: true,
    read: async () => records(),
    replayed: () => {
      const state = replayed;
      replayed = undefined;
      return state;
    },
    append: (record) => {
      file ??= openJournal(journalFile());
      if (keep) known?.push(record);
      return file.append(record);
    },
    close: async () => file?.close(),
    /** Every record so far: from memory when kept, else as a read. */
    records,
    /** The run's ledger as its journal stands now. */
    ledger: () => ledgerOf(keep && known ? known : readJournal(journalFile())),
  };
}
