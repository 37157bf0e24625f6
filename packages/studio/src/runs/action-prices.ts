import type { ReportModel, StoryboardCard } from "@reelsmith/report/page";

/** What an action is expected to cost, in credits, as the runner estimated it. */
export interface Price {
  credits: number;
  /** False when some cost is known only at run time (the figure is a lower bound). */
  complete: boolean;
  /** The most it can cost, when the price is known as a range (`credits` to this). */
  creditsAtMost?: number;
}

/** Statuses a run can be resumed from (a stopped run; a waiting one goes on by its gate). */
const RESUMABLE = new Set(["cancelled", "failed", "budget_reached", "running"]);

/**
 * The prices the studio shows before an action is confirmed: approving a gate costs what the
 * steps behind it are expected to cost (`run.waiting`'s `next`: priced over the outputs made so
 * far, a range where they read outputs not made yet, a unit the cache holds at 0); rejecting and picking cost
 * nothing; a retake costs what its unit cost when paid (never 0 for the cache); resuming costs what is left of the estimate.
 * @example actionPrices(model).retake("clips") // { credits: 8, complete: true }
 */
export function actionPrices(model: ReportModel) {
  const estimate = model.estimate;
  return {
    approve: (): Price =>
      model.next
        ? {
            credits: model.next.credits,
            complete: model.next.complete,
            ...(model.next.creditsAtMost === undefined
              ? {}
              : { creditsAtMost: model.next.creditsAtMost }),
          }
        : { credits: 0, complete: false },
    reject: (): Price => ({ credits: 0, complete: true }),
    pick: (): Price => ({ credits: 0, complete: true }),
    retake: (step: string, unit?: StoryboardCard): Price => {
      // A take is made anew whatever the cache holds: it costs what the unit's request cost
      // when paid (its picked take's, else its own, else what the cache saved on it).
      const picked = unit?.takes?.find((take) => take.picked)?.credits;
      const paid = picked || unit?.credits || unit?.savedCredits;
      if (paid) return { credits: paid, complete: true };
      const perUnit = estimate?.steps[step]?.perUnit;
      return perUnit === undefined
        ? { credits: 0, complete: false }
        : { credits: perUnit, complete: true };
    },
    resume: (): Price =>
      estimate
        ? {
            credits: Math.max(0, estimate.credits - model.totals.credits),
            complete: estimate.complete,
          }
        : { credits: 0, complete: false },
  };
}

/**
 * Whether a run may be resumed from the studio: it stopped (cancelled, failed, out of budget,
 * or killed: `running` without a process holding its lock), or its gates were decided.
 * @example canResume(model, false)
 */
export function canResume(model: ReportModel, locked: boolean): boolean {
  // A gate decided from elsewhere (`reelsmith approve` without --continue) waits for a resume.
  const decided =
    model.status === "waiting" && !model.approvals.some((gate) => gate.state === "waiting");
  return decided || (RESUMABLE.has(model.status) && !(model.status === "running" && locked));
}
