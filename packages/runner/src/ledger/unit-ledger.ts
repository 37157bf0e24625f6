import { addTotals, emptyTotals, type RunTotals } from "../events/run-event.js";
import type { JournalWriter } from "../journal/journal.js";
import type { LedgerRecord } from "./ledger.js";

/** What a step kind tells the ledger as it works (a job submitted, re-attached, charged). */
export interface UnitLedger {
  /**
   * Records what happened, durably, before the kind acts on it: a submission before the job
   * is polled, a charge once the job completed. An entry whose `key` the unit's take already
   * journaled (in this attempt or an earlier one) is the same fact: it is not written again,
   * and the promise resolves to false. Kinds write their keyed entries again on every path
   * that finds the fact (a resumed unit), so that a kill between a fact and its entry never
   * leaves the entry out.
   * @example await context.ledger.record({ totals: { jobsSubmitted: 1 }, jobId, key: `submitted:${jobId}` });
   */
  record(entry: Omit<LedgerRecord, "type" | "step" | "index" | "take">): Promise<boolean>;
}

/** What {@link UnitLedger.record} resolves to once a new entry is durable. */
const entered = (): boolean => true;

/** Key of a unit's entry in {@link createUnitLedger}'s `known`: its take and its key. */
export function knownEntryKey(take: number | undefined, key: string): string {
  return `${take ?? 1}:${key}`;
}

/**
 * The ledger of one unit: it journals each entry (a `ledger` record of the unit's step and
 * index, and its take from the second one) and keeps the unit's own sum, which the unit's
 * result carries. `known` holds the keyed entries an earlier attempt of the unit journaled
 * (as {@link knownEntryKey}s): an entry with one of those keys is not written nor counted
 * again, and they count as the unit's own entries.
 * @example const ledger = createUnitLedger(journal, "clips", 2); await ledger.record({ totals: { credits: 9 }, key: "charged:v1" });
 */
export function createUnitLedger(
  journal: JournalWriter,
  step: string,
  index: number | undefined,
  take?: number,
  known: ReadonlySet<string> = new Set(),
) {
  const totals = emptyTotals();
  // Keys of entries journaled in this attempt (those of earlier ones are in `known`).
  const seen = new Set<string>();
  const takeNumber = take !== undefined && take > 1 ? take : 1;
  let own = 0;
  for (const entry of known) if (entry.startsWith(`${takeNumber}:`)) own += 1;
  const ledger: UnitLedger & { totals(): RunTotals; ownEntries(): number } = {
    record(entry) {
      // As an async function would: what throws comes back as a rejection.
      try {
        return recordEntry(entry);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    totals: () => ({ ...totals }),
    /** Entries the unit's kind made itself, in this attempt or an earlier one (a sub-pipeline's spending is not one). */
    ownEntries: () => own,
  };
  function recordEntry(entry: Parameters<UnitLedger["record"]>[0]): Promise<boolean> {
    if (entry.key !== undefined) {
      const fact = knownEntryKey(takeNumber, entry.key);
      if (seen.has(fact) || known.has(fact)) return Promise.resolve(false);
      seen.add(fact);
    }
    if (entry.via === undefined) own += 1;
    addTotals(totals, entry.totals);
    // Object.assign, not spreads: one copy, and no async frame held until the sync.
    const record = Object.assign(
      { type: "ledger", step },
      index === undefined ? undefined : { index },
      entry,
      take !== undefined && take > 1 ? { take } : undefined,
    );
    return journal.append(record).then(entered);
  }
  return ledger;
}
