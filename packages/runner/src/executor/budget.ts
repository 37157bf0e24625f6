import { BudgetExceededError } from "../errors/budget-exceeded-error.js";

/** A paid request the budget is asked about: its idempotency key and what it asks for. */
export interface BudgetRequest {
  /** The request's idempotency key: a reservation made for it is settled under the same key. */
  key: string;
  /** The video request (model, seconds, size): its expected price is reserved. */
  request: Record<string, unknown>;
  /**
   * What the request is expected to cost, as its kind prices it; used before any video
   * catalog (a kind whose price the video catalog cannot know gives it here).
   */
  credits?: number;
}

/**
 * Credits spent so far against an optional maximum, shared by every video job of a run.
 * Before a job is submitted its expected price is reserved, so jobs submitted together can
 * never spend past the maximum; a completed job settles its reservation at its real price.
 * The in-process budget answers at once; an executor that keeps the budget in a database
 * reserves and settles there (so its methods may return promises: always await them).
 */
export interface CreditBudget {
  readonly maxCredits: number | undefined;
  readonly spent: number;
  readonly reached: boolean;
  /** True once a submission was refused because the budget was reached. */
  readonly refused: boolean;
  /**
   * Reserves the submission's expected price, or throws (rejects with) BudgetExceededError
   * when it does not fit in what is left.
   */
  assertCanSubmit(submission?: BudgetRequest): void | Promise<void>;
  /** Adds spent credits (settling the submission's reservation, if any). */
  spend(credits: number, submission?: Pick<BudgetRequest, "key">): void | Promise<void>;
  /** Gives back a reservation whose job will not be paid (it failed, or was never sent). */
  release?(submission: Pick<BudgetRequest, "key">): void | Promise<void>;
  /** Credits still free: the maximum less what is spent and reserved (undefined: no maximum). */
  left?(): number | undefined | Promise<number | undefined>;
}

/** What a request is expected to cost: by the model's price, else what the same request cost before. */
function priceKey(request: Record<string, unknown>): string {
  return `${String(request.model)}|${String(request.size ?? "")}|${String(request.seconds ?? "")}`;
}

/**
 * Creates the in-process credit budget. Each submission reserves its expected price: what
 * its kind expects it to cost (`credits`, from its model's price in the run's catalogs), else
 * what the same request (model, size, length) cost when it completed before. A request whose price is unknown is admitted alone: the first
 * of its kind is sent, its real price is learnt when it completes, and the next ones are
 * admitted against it (the reference service reports a job's credits only at its end).
 * Without a maximum nothing is refused and nothing waits.
 * @example
 * const budget = createBudget(500, onReached);
 * await budget.assertCanSubmit({ key, request, credits: 12 }); // before each new paid job
 */
export function createBudget(
  maxCredits: number | undefined,
  onReached: (spent: number, maxCredits: number) => void,
): CreditBudget {
  let spent = 0;
  let reached = false;
  let refused = false;
  const reservations = new Map<string, number>();
  const learnt = new Map<string, number>();
  /** Submissions of unknown price waiting for the one in flight to teach it. */
  let unpricedInFlight: Promise<void> | undefined;
  let unpricedDone: (() => void) | undefined;
  const reserved = () => [...reservations.values()].reduce((sum, value) => sum + value, 0);
  const check = () => {
    if (!reached && maxCredits !== undefined && spent >= maxCredits) {
      reached = true;
      onReached(spent, maxCredits);
    }
  };
  const refuse = (): never => {
    refused = true;
    if (!reached && maxCredits !== undefined) {
      reached = true;
      onReached(spent, maxCredits);
    }
    throw new BudgetExceededError(spent, maxCredits ?? 0);
  };
  const expected = (request: Record<string, unknown>, credits?: number): number | undefined => {
    if (typeof credits === "number" && Number.isFinite(credits) && credits >= 0) return credits;
    return learnt.get(priceKey(request));
  };
  const pending = new Map<string, string>();
  check();
  return {
    maxCredits,
    get spent() {
      return spent;
    },
    get reached() {
      return reached;
    },
    get refused() {
      return refused;
    },
    async assertCanSubmit(submission) {
      check();
      if (maxCredits === undefined) return;
      if (reached) refuse();
      if (!submission) return;
      if (reservations.has(submission.key)) return;
      let estimate = expected(submission.request, submission.credits);
      while (estimate === undefined && unpricedInFlight) {
        // Its price is learnt from the job in flight: wait for it, then look again.
        await unpricedInFlight;
        estimate = expected(submission.request, submission.credits);
      }
      if (estimate === undefined) {
        // The first of its kind: admitted alone, if anything is left at all.
        if (spent + reserved() >= maxCredits) refuse();
        unpricedInFlight = new Promise<void>((resolve) => {
          unpricedDone = resolve;
        });
        reservations.set(submission.key, 0);
        pending.set(submission.key, priceKey(submission.request));
        return;
      }
      if (spent + reserved() + estimate > maxCredits) refuse();
      reservations.set(submission.key, estimate);
      pending.set(submission.key, priceKey(submission.request));
    },
    spend(credits, submission) {
      const amount = Number.isFinite(credits) && credits > 0 ? credits : 0;
      spent += amount;
      if (submission) {
        const key = pending.get(submission.key);
        if (key !== undefined) learnt.set(key, amount);
        if (reservations.get(submission.key) === 0) {
          unpricedInFlight = undefined;
          unpricedDone?.();
        }
        reservations.delete(submission.key);
        pending.delete(submission.key);
      }
      check();
    },
    left() {
      return maxCredits === undefined ? undefined : Math.max(0, maxCredits - spent - reserved());
    },
    release(submission) {
      if (reservations.get(submission.key) === 0) {
        unpricedInFlight = undefined;
        unpricedDone?.();
      }
      reservations.delete(submission.key);
      pending.delete(submission.key);
    },
  };
}
