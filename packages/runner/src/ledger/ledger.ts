import { addTotals, emptyTotals, type RunTotals } from "../events/run-event.js";
import type { JournalRecord } from "../journal/journal-record.js";

/**
 * One entry of a run's ledger, a journal record of its own: what a unit of a step spent,
 * saved or used, as it happened (a job's submission when it is sent, its credits when it
 * completes, a cache hit's saving when it is served). Figures are deltas: the ledger of a
 * step, a run or a resumed run is their sum over the journal.
 */
export interface LedgerRecord {
  type: "ledger";
  step: string;
  index?: number;
  /** Deltas of the totals (credits spent, saved credits, tokens, jobs…). */
  totals: Partial<RunTotals>;
  /** Where a credits figure came from: the service's answer, or the model's price. */
  creditsFrom?: "service" | "price";
  /** A job this entry is about (its submission, re-attachment or charge). */
  jobId?: string;
  /** Spending of a sub-pipeline a tool of this unit ran (its own ledger is in its run directory). */
  via?: "sub-pipeline";
  /** The take of the unit it was spent on, from the second one (a retake); absent for take 1. */
  take?: number;
  /**
   * Which fact of its unit's take this entry is (`charged:<job id>`, `cached`, …): an entry
   * whose unit, take and key were journaled already is the same fact written again (a resumed
   * unit, a unit re-run after its worker died, a write retried after a database error) and is
   * counted once. Entries without a key (a sub-pipeline's spending) always count.
   */
  key?: string;
}

/** The ledger of a run: its totals, each step's, and each unit's. */
export interface Ledger {
  total: RunTotals;
  steps: Record<string, RunTotals>;
  /** By unit: `step` for a plain step, `step#index` for a fan-out item. */
  units: Record<string, RunTotals>;
  /** By take of a unit that was retaken: `step#index@take` ({@link takeKey}); take 1 included. */
  takes: Record<string, RunTotals>;
}

/**
 * The key of a unit in {@link Ledger.units}.
 * @example unitKey("clips", 2) // "clips#2"
 */
export function unitKey(step: string, index?: number): string {
  return index === undefined ? step : `${step}#${index}`;
}

/**
 * The key of one take of a unit in {@link Ledger.takes}.
 * @example takeKey("clips", 2, 1) // "clips#2@1"
 */
export function takeKey(step: string, index: number | undefined, take: number): string {
  return `${unitKey(step, index)}@${take}`;
}

/**
 * The identity of a keyed ledger entry within its run (undefined for an entry without a key).
 * @example factKey({ type: "ledger", step: "clips", index: 2, key: "charged:v1", totals: {} }) // "clips#2@1:charged:v1"
 */
export function factKey(
  record: Pick<LedgerRecord, "step" | "index" | "take" | "key">,
): string | undefined {
  if (typeof record.key !== "string") return undefined;
  const take = typeof record.take === "number" ? record.take : 1;
  return `${takeKey(record.step, record.index, take)}:${record.key}`;
}

/** True for a ledger record. */
export function isLedgerRecord(record: JournalRecord): record is JournalRecord & LedgerRecord {
  return record.type === "ledger" && typeof record.step === "string";
}

/**
 * A ledger kept up to date as records arrive: the one place every cost and usage figure of
 * a run is computed (the CLI's table and totals, the events, the report, `status`, resume,
 * sub-pipelines all read it). Seeded with a resumed run's journal, it counts every session.
 * @example const ledger = createLedger(previousRecords); ledger.add(record); ledger.snapshot().total.credits
 */
export function createLedger(records: Iterable<JournalRecord> = []) {
  const steps = new Map<string, RunTotals>();
  // By unit and by take only when a snapshot asks (a run's live ledger is asked by step). Of
  // each entry, only what that needs: a run of thousands of units keeps two or three each.
  const counted: Pick<LedgerRecord, "step" | "index" | "take" | "totals">[] = [];
  const into = (map: Map<string, RunTotals>, key: string, totals: Partial<RunTotals>) => {
    let figures = map.get(key);
    if (!figures) {
      figures = emptyTotals();
      map.set(key, figures);
    }
    addTotals(figures, totals);
  };
  // Keyed facts already counted: the same fact journaled again is counted once.
  const facts = new Set<string>();
  const add = (record: JournalRecord): void => {
    if (!isLedgerRecord(record)) return;
    const fact = factKey(record);
    if (fact !== undefined) {
      if (facts.has(fact)) return;
      facts.add(fact);
    }
    into(steps, record.step, record.totals);
    counted.push({
      step: record.step,
      index: record.index,
      take: record.take,
      totals: record.totals,
    });
  };
  for (const record of records) add(record);
  return {
    add,
    /** One step's figures (zero when it has none). */
    step(id: string): RunTotals {
      return { ...(steps.get(id) ?? emptyTotals()) };
    },
    /** Every step's figures (copies), by step id. */
    steps(): Record<string, RunTotals> {
      const byStep: Record<string, RunTotals> = {};
      for (const [id, figures] of steps) byStep[id] = { ...figures };
      return byStep;
    },
    /** The run's figures: every step's summed (what `snapshot().total` is, without the copies). */
    total(): RunTotals {
      const total = emptyTotals();
      for (const figures of steps.values()) addTotals(total, figures);
      return total;
    },
    /** Every step's and unit's figures, and their sum. */
    snapshot(): Ledger {
      const total = emptyTotals();
      const byStep: Record<string, RunTotals> = {};
      for (const [id, figures] of steps) {
        byStep[id] = { ...figures };
        addTotals(total, figures);
      }
      const units = new Map<string, RunTotals>();
      const takes = new Map<string, RunTotals>();
      for (const record of counted) {
        into(units, unitKey(record.step, record.index), record.totals);
        const take = typeof record.take === "number" ? record.take : 1;
        into(takes, takeKey(record.step, record.index, take), record.totals);
      }
      return {
        total,
        steps: byStep,
        units: Object.fromEntries(units),
        takes: Object.fromEntries(takes),
      };
    },
  };
}

/** What {@link createLedger} returns. */
export type LiveLedger = ReturnType<typeof createLedger>;

/**
 * The ledger of a run from its journal's records (the file journal, or a database's).
 * @example const { total } = ledgerOf(readJournal("runs/x/journal.jsonl")); total.savedCredits
 */
export function ledgerOf(records: Iterable<JournalRecord>): Ledger {
  return createLedger(records).snapshot();
}
