import type { RunEstimate } from "@reelsmith/runner";
import { BudgetEstimateError, PriceUnitError } from "@reelsmith/runner/errors";
import { leastPartialEstimate, refuseOverBudget } from "@reelsmith/runner/internal";

/** What a service account's budget has left for a new run. */
export interface AccountBudgetLeft {
  /** The account's maximum. */
  maxCredits: number;
  /** Spent, and reserved by jobs in flight, on every run of the account. */
  committed: number;
}

/**
 * Refuses a run whose certain cost is over its own maximum or over what its service
 * account's budget has left, with the runner's BudgetEstimateError (nothing was sent). A run
 * that makes what fits (`allowPartial`) is held to the least it pays before it has made
 * something of every paid step, as a local run is.
 * @example assertEstimateWithin(estimate, { maxCredits: 10 }); // throws when estimate.credits > 10
 */
export function assertEstimateWithin(
  estimate: RunEstimate,
  limits: {
    maxCredits?: number | undefined;
    account?: AccountBudgetLeft | undefined;
    allowPartial?: boolean | undefined;
  },
): void {
  const { maxCredits, account, allowPartial } = limits;
  refuseOverBudget(estimate, maxCredits, { allowPartial });
  if (!account) return;
  const left = Math.max(0, account.maxCredits - account.committed);
  // The account's budget in credits never silently leaves out a cost in another unit either.
  if (estimate.otherUnits && Object.keys(estimate.otherUnits).length > 0)
    throw new PriceUnitError(estimate.otherUnits, left);
  const held = allowPartial ? leastPartialEstimate(estimate) : estimate;
  if (held.credits <= left) return;
  throw new BudgetEstimateError(held, left, undefined, {
    budget: `over the ${left} credits its service account's budget has left (${account.maxCredits} in all, ${account.committed} spent or reserved by its runs)`,
    advice:
      "Raise the account's budget (`budget` of submitRun or configureService), or make the run smaller.",
  });
}
