import type { RunEvent, SerializedError } from "../contracts/run-event.js";
import type { NotificationCredits } from "./notification.js";

/** What a notification needs to know about a run, folded from its events. */
export interface RunFacts {
  runId?: string;
  runDir?: string;
  name?: string;
  resumed?: boolean;
  startedAt?: string;
  endedAt?: string;
  durationMs?: number;
  /** `succeeded`, `failed` or `cancelled`, once `run.end` was seen. */
  status?: string;
  credits?: NotificationCredits;
  tokens?: number;
  made?: Record<string, number>;
  outputs?: Record<string, unknown>;
  error?: SerializedError;
  /** A `budget.reached` event was seen. */
  budgetReached: boolean;
}

/**
 * Empty facts, before any event.
 *
 * @example
 * const facts = createRunFacts();
 * for (const event of events) foldRunFact(facts, event);
 */
export function createRunFacts(): RunFacts {
  return { budgetReached: false };
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * The credit figures a `run.end` event carries: a `credits` ledger object
 * (`{ spent, estimated, saved }`) when there is one, else its totals (`credits`,
 * `estimatedCredits`, `savedCredits`). A figure that is not there stays out.
 *
 * @example
 * creditsOf({ totals: { credits: 36 } }); // { spent: 36 }
 */
export function creditsOf(event: {
  totals?: unknown;
  credits?: unknown;
}): NotificationCredits | undefined {
  const ledger = (event.credits ?? {}) as Record<string, unknown>;
  const totals = (event.totals ?? {}) as Record<string, unknown>;
  const spent = finite(ledger.spent) ?? finite(totals.credits);
  if (spent === undefined) return undefined;
  const estimated = finite(ledger.estimated) ?? finite(totals.estimatedCredits);
  const saved = finite(ledger.saved) ?? finite(totals.savedCredits);
  return {
    spent,
    ...(estimated === undefined ? {} : { estimated }),
    ...(saved === undefined ? {} : { saved }),
  };
}

/**
 * Fold one event into the facts (unknown events are ignored). A resumed run's log starts
 * again with its own `run.start`, so the latest session wins.
 *
 * @example
 * foldRunFact(facts, { type: "budget.reached", seq: 9, time: "…", credits: 40, maxCredits: 40 });
 */
export function foldRunFact(facts: RunFacts, event: RunEvent): void {
  switch (event.type) {
    case "run.start":
      facts.runId = event.runId;
      facts.runDir = event.runDir;
      facts.name = event.name;
      facts.resumed = event.resumed;
      facts.startedAt = event.time;
      return;
    case "budget.reached":
      facts.budgetReached = true;
      return;
    case "run.end": {
      facts.status = event.status;
      facts.endedAt = event.time;
      facts.durationMs = event.durationMs;
      facts.outputs = event.outputs;
      facts.error = event.error;
      const credits = creditsOf(event);
      if (credits) facts.credits = credits;
      // Events of older versions may lack totals.
      const tokens = finite(event.totals?.totalTokens);
      if (tokens !== undefined) facts.tokens = tokens;
      const made = event.totals?.made;
      if (made && Object.keys(made).length > 0) facts.made = { ...made };
      return;
    }
    default:
      return;
  }
}
