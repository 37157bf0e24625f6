import { BudgetEstimateError, type RunEstimate } from "@reelsmith/runner";

/** What a service account's budget has left for a new run. */
export interface AccountBudgetLeft {
  /** The account's maximum. */
  maxCredits: number;
  /** Spent, and reserved by jobs in flight, on every run of the account. */
  committed: number;
}

/**
 * Refuses a run whose certain cost is over its own maximum or over what its service
 * account's budget has left, with the runner's BudgetEstimateError (nothing was sent).
 * @example assertEstimateWithin(estimate, { maxCredits: 10 }); // throws when estimate.credits > 10
 */
export function assertEstimateWithin(
  estimate: RunEstimate,
  limits: { maxCredits?: number | undefined; account?: AccountBudgetLeft | undefined },
): void {
  const { maxCredits, account } = limits;
  if (maxCredits !== undefined && estimate.credits > maxCredits) {
    throw new BudgetEstimateError(estimate, maxCredits);
  }
  // A budget below the price of one unit of a paid step pays for nothing of it.
  const overPriced =
    maxCredits === undefined
      ? undefined
      : Object.entries(estimate.steps).find(
          ([, step]) => step.perUnit !== undefined && step.perUnit > maxCredits && step.units !== 0,
        );
  if (maxCredits !== undefined && overPriced) {
    throw new BudgetEstimateError(estimate, maxCredits, {
      step: overPriced[0],
      perUnit: overPriced[1].perUnit ?? 0,
    });
  }
  if (!account) return;
  const left = Math.max(0, account.maxCredits - account.committed);
  if (estimate.credits <= left) return;
  const error = new BudgetEstimateError(estimate, left);
  // The runner's message names the run's own budget; this one is the account's.
  const cost = error.message.split(", over its budget of")[0];
  if (cost !== error.message) {
    error.message = `${cost}, over the ${left} credits its service account's budget has left (${account.maxCredits} in all, ${account.committed} spent or reserved by its runs); nothing was sent. Raise the account's budget (\`budget\` of submitRun or configureService), or make the run smaller.`;
  }
  throw error;
}
