import { addTotals, emptyTotals, type RunTotals } from "../events/run-event.js";
import type { JournalWriter } from "../journal/journal.js";
import type { LedgerRecord } from "./ledger.js";

/** What a step kind tells the ledger as it works (a job submitted, re-attached, charged). */
export interface UnitLedger {
  /**
   * Records what happened, durably, before the kind acts on it: a submission before the job
   * is polled, a charge once the job completed.
   * @example await context.ledger.record({ totals: { jobsSubmitted: 1 }, jobId });
   */
  record(entry: Omit<LedgerRecord, "type" | "step" | "index" | "take">): Promise<void>;
}

/**
 * The ledger of one unit: it journals each entry (a `ledger` record of the unit's step and
 * index, and its take from the second one) and keeps the unit's own sum, which the unit's
 * result carries.
 * @example const ledger = createUnitLedger(journal, "clips", 2); await ledger.record({ totals: { credits: 9 } });
 */
export function createUnitLedger(
  journal: JournalWriter,
  step: string,
  index: number | undefined,
  take?: number,
) {
  const totals = emptyTotals();
  let own = 0;
  const ledger: UnitLedger & { totals(): RunTotals; ownEntries(): number } = {
    async record(entry) {
      if (entry.via === undefined) own += 1;
      addTotals(totals, entry.totals);
      await journal.append({
        type: "ledger",
        step,
        ...(index === undefined ? {} : { index }),
        ...entry,
        ...(take !== undefined && take > 1 ? { take } : {}),
      });
    },
    totals: () => ({ ...totals }),
    /** Entries the unit's kind made itself (a sub-pipeline's spending is not one). */
    ownEntries: () => own,
  };
  return ledger;
}
