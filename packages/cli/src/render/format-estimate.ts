import type { RunEstimate } from "../contracts/run-event.js";

type StepEstimate = RunEstimate["steps"][string];

/**
 * One step's expected cost in words: `4 × 9 = 36`, `9 per item × N (N known at run time)`,
 * `36 spent + 2 × 9 = 54` (a resumed run's earlier sessions counted),
 * or why it is unknown; with the units the cache or the interrupted run already hold, and its
 * parts in other units (`1, and 0.3 usd`).
 *
 * @example
 * formatStepEstimate({ perUnit: 9, units: 4, credits: 36 }); // "4 × 9 = 36"
 */
export function formatStepEstimate(step: StepEstimate): string {
  return `${creditFigures(step)}${unitParts(step)}`;
}

/**
 * A step's parts in other units, after its credits: `, and 0.3 usd`, or `, and 0.3 usd per
 * item` while its number of units is known only at run time.
 */
function unitParts(step: StepEstimate): string {
  return Object.entries(step.otherUnits ?? {})
    .map(([unit, part]) =>
      part.amount !== undefined
        ? `, and ${roundAmount(part.amount)} ${unit}`
        : part.perUnit !== undefined
          ? `, and ${roundAmount(part.perUnit)} ${unit} per item`
          : `, and an amount in ${unit} known at run time`,
    )
    .join("");
}

/** A step's figures in its own unit (credits unless `unit` says otherwise). */
function creditFigures(step: StepEstimate): string {
  // A step priced in a unit with no rate to credits says it: `2 × 0.05 = 0.1 usd`.
  const unit = step.unit === undefined ? "" : ` ${step.unit}`;
  if (step.units === 0 && step.spent !== undefined && !step.cached)
    return `spent ${step.spent}${unit}`;
  if (step.perUnit === undefined && (step.credits === undefined || step.units === undefined)) {
    const price = `a price${step.unit === undefined ? "" : ` in ${step.unit}`}`;
    return step.units === undefined
      ? `${price} unknown until a job completes; items known at run time`
      : `${step.units} × ${price} known at run time`;
  }
  return `${stepFigures(step)}${unit}`;
}

/** A priced step's figures, in its unit (credits unless `unit` says otherwise). */
function stepFigures(step: StepEstimate): string {
  const held = step.cached ? ` (${step.cached} from the cache, free)` : "";
  if (step.perUnit === undefined && step.credits !== undefined && step.units !== undefined) {
    // Units of different prices, or a price known as a range (from outputs not made yet).
    const items = `${step.units} item${step.units === 1 ? "" : "s"}`;
    return step.creditsAtMost !== undefined
      ? `${items}: between ${step.credits} and ${step.creditsAtMost}${held}`
      : `${items}: ${step.credits}${held}`;
  }
  if (step.perUnit === undefined) return "";
  if (step.units === undefined && step.unitsAtMost !== undefined) {
    const least = step.unitsAtLeast ?? 0;
    return `${step.perUnit} per item × ${least}–${step.unitsAtMost} = ${step.perUnit * least}–${step.perUnit * step.unitsAtMost}`;
  }
  if (step.units === undefined)
    return step.unitsAtLeast
      ? `${step.perUnit} per item × N (N ≥ ${step.unitsAtLeast}, known at run time)`
      : `${step.perUnit} per item × N (N known at run time)`;
  // A resumed run's step counts what its earlier sessions spent: `36 spent + 2 × 9 = 54`.
  const before = step.spent ? `${step.spent} spent + ` : "";
  if (step.units === 1 && !step.cached)
    return before
      ? `${before}${step.perUnit} = ${step.credits ?? (step.spent ?? 0) + step.perUnit}`
      : String(step.credits ?? step.perUnit);
  return `${before}${step.units} × ${step.perUnit} = ${step.credits ?? (step.spent ?? 0) + step.perUnit * step.units}${held}`;
}

/**
 * A run's expected cost as lines: the total (or its certain part), each paid step's, and
 * how it stands against the budget.
 *
 * @example
 * formatEstimate({ credits: 36, complete: true, steps: { clips: { perUnit: 9, units: 4, credits: 36 } } }, 500);
 * // ["expected cost: 36 credits (budget 500)", "  clips  4 × 9 = 36"]
 */
export function formatEstimate(
  estimate: RunEstimate,
  maxCredits?: number,
  options: { revised?: boolean } = {},
): string[] {
  const budget = maxCredits === undefined ? "" : ` (budget ${maxCredits})`;
  const what = options.revised ? "expected cost now" : "expected cost";
  const head = estimate.complete
    ? `${what}: ${estimate.credits} credits${budget}`
    : estimate.creditsAtMost !== undefined
      ? `${what}: between ${estimate.credits} and ${estimate.creditsAtMost} credits${budget}`
      : `${what}: at least ${estimate.credits} credits, the rest known at run time${budget}`;
  const steps = Object.entries(estimate.steps).filter(
    ([, step]) =>
      step.cached || (step.perUnit !== 0 && !(step.units === 0 && !step.credits && !step.spent)),
  );
  const width = Math.max(0, ...steps.map(([id]) => id.length));
  return [
    head,
    ...formatOtherUnits(estimate),
    ...steps.map(([id, step]) => `  ${id.padEnd(width)}  ${formatStepEstimate(step)}`),
  ];
}

/**
 * The run's totals in units other than credits, one line each, never added to the credits.
 *
 * @example
 * formatOtherUnits({ credits: 4, complete: true, steps: {}, otherUnits: { usd: { amount: 0.75, complete: true, models: ["fal-clip"], providers: ["fal"] } } });
 * // ["and 0.75 usd (fal-clip, providers.fal), not in credits"]
 */
export function formatOtherUnits(estimate: RunEstimate): string[] {
  return Object.entries(estimate.otherUnits ?? {}).map(([unit, total]) => {
    const amount = total.complete
      ? `${roundAmount(total.amount)} ${unit}`
      : total.amount === 0
        ? `an amount in ${unit} known at run time`
        : `at least ${roundAmount(total.amount)} ${unit}`;
    return `and ${amount} (${total.models.join(", ")}, ${total.providers.map((name) => `providers.${name}`).join(", ")}), not in credits`;
  });
}

/** An amount exactly as the run's totals will say it (to 1e-9: no float noise). */
function roundAmount(amount: number): string {
  return String(Math.round(amount * 1e9) / 1e9);
}

/**
 * The lines of a run's successive estimates (`run.estimate` comes again once a fan-out's items
 * are known): the first in full, a later one only when it says something new, headed
 * "expected cost now".
 *
 * @example
 * const lines = createEstimateLines();
 * lines(estimate, 500); // ["expected cost: 36 credits (budget 500)", "  clips  4 × 9 = 36"]
 * lines(estimate, 500); // [] (the same figures again)
 */
export function createEstimateLines(): (estimate: RunEstimate, maxCredits?: number) => string[] {
  let shown: string | undefined;
  return (estimate, maxCredits) => {
    const key = formatEstimate(estimate, maxCredits).join("\n");
    if (key === shown) return [];
    const revised = shown !== undefined;
    shown = key;
    return formatEstimate(estimate, maxCredits, { revised });
  };
}
