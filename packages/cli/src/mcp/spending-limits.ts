import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { ledgerOf, readJournal } from "@reelsmith/runner/runs";

/** The limits the person who starts the server sets; no tool call can raise them. */
export interface SpendingCeiling {
  /** Credits one run may spend in all (`--max-credits`). */
  maxCredits?: number;
  /** Credits every paid call of this server may spend together (`--max-total-credits`). */
  maxTotalCredits?: number;
}

/** The budget a paid call gets, and the numbers it came from. */
export interface Grant {
  /** The run's budget for this call (what it spent counts), or undefined: no limit applies. */
  budget?: number;
  /** What the call may spend from now on (`budget - spent`). */
  allowance?: number;
  ceiling?: number;
  left?: number;
  spent: number;
}

/** One paid call of this server: the run it spends on and what it may spend. */
interface Spender {
  runDir?: string;
  /** The run's spending when the call began. */
  baseline: number;
  allowance?: number;
  /** What it spent, once it ended. */
  final?: number;
}

/**
 * Credits a run has spent, from its journal's ledger (0 for a run directory without one); of a
 * batch directory, what its rows' runs spent.
 * @example spentOf("runs/20260101-120000-storyboard") // 36
 */
export function spentOf(runDir: string): number {
  // A batch directory: what its rows' runs spent (each has its own ledger).
  if (existsSync(path.join(runDir, "batch.jsonl"))) {
    const rows = path.join(runDir, "rows");
    if (!existsSync(rows)) return 0;
    let total = 0;
    for (const entry of readdirSync(rows, { withFileTypes: true }))
      if (entry.isDirectory()) total += spentOf(path.join(rows, entry.name));
    return total;
  }
  const journal = path.join(runDir, "journal.jsonl");
  if (!existsSync(journal)) return 0;
  return ledgerOf(readJournal(journal)).total.credits;
}

/**
 * The server's spending: what its paid calls spent (from their runs' ledgers) and hold
 * (a running call counts at its whole allowance, so two calls at once never share what is
 * left), and the budget each new paid call gets: `min(asked, ceiling, spent + left)`.
 *
 * @example
 * const limits = createSpendingLimits({ maxCredits: 100, maxTotalCredits: 300 });
 * const grant = limits.grant({ asked: 50, spent: 0 }); // { budget: 50, allowance: 50, … }
 */
export function createSpendingLimits(ceiling: SpendingCeiling) {
  const spenders = new Set<Spender>();
  const spentBy = (spender: Spender) =>
    spender.final ?? (spender.runDir ? spentOf(spender.runDir) - spender.baseline : 0);
  const committed = () => {
    let total = 0;
    for (const spender of spenders) {
      const spent = spentBy(spender);
      total += spender.final === undefined ? Math.max(spent, spender.allowance ?? 0) : spent;
    }
    return total;
  };
  return {
    ceiling,
    /** Credits the server's paid calls spent so far. */
    spent(): number {
      let total = 0;
      for (const spender of spenders) total += spentBy(spender);
      return total;
    },
    /** What is left of the total, or undefined without `--max-total-credits`. */
    left(): number | undefined {
      return ceiling.maxTotalCredits === undefined
        ? undefined
        : Math.max(0, ceiling.maxTotalCredits - committed());
    },
    /**
     * The budget of a paid call on a run that spent `spent`: what it asks for (else the run's
     * own budget), never above the ceiling nor above what is left of the total.
     */
    grant(request: { asked?: number; own?: number; spent: number }): Grant {
      const left = this.left();
      const candidates = [
        request.asked ?? request.own,
        ceiling.maxCredits,
        left === undefined ? undefined : request.spent + left,
      ].filter((value): value is number => value !== undefined);
      const budget = candidates.length > 0 ? Math.min(...candidates) : undefined;
      return {
        ...(budget === undefined ? {} : { budget, allowance: Math.max(0, budget - request.spent) }),
        ...(ceiling.maxCredits === undefined ? {} : { ceiling: ceiling.maxCredits }),
        ...(left === undefined ? {} : { left }),
        spent: request.spent,
      };
    },
    /**
     * Count a paid call from now until `end` is called; `attach` names its run once known.
     */
    hold(grant: Grant, runDir?: string) {
      const spender: Spender = {
        baseline: grant.spent,
        ...(runDir ? { runDir } : {}),
        ...(grant.allowance === undefined ? {} : { allowance: grant.allowance }),
      };
      spenders.add(spender);
      return {
        attach(dir: string) {
          spender.runDir = dir;
        },
        end() {
          spender.final = spentBy(spender);
        },
      };
    },
  };
}

/** What {@link createSpendingLimits} returns. */
export type SpendingLimits = ReturnType<typeof createSpendingLimits>;
