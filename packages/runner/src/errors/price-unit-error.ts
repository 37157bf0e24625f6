import type { OtherUnitTotal } from "../plan/plan-types.js";
import { RunnerError } from "./runner-error.js";

/**
 * A run with a budget in credits that would use models priced in another unit (a provider's
 * `unit: usd`, …) with no rate to credits: refused before anything is sent, since their cost
 * cannot be counted against the budget. The message names each model, its provider and unit.
 * @example throw new PriceUnitError({ usd: { amount: 0.5, complete: true, models: ["fal-ai/kling"], providers: ["fal"] } }, 100);
 */
export class PriceUnitError extends RunnerError {
  readonly units: Record<string, OtherUnitTotal>;
  readonly maxCredits: number;
  constructor(units: Record<string, OtherUnitTotal>, maxCredits: number) {
    const named = Object.entries(units).map(
      ([unit, total]) =>
        `${total.models.map((model) => `\`${model}\``).join(", ")} (${total.providers.map((name) => `providers.${name}`).join(", ")}) priced in ${unit}`,
    );
    const providers = [...new Set(Object.values(units).flatMap((total) => total.providers))];
    super(
      "budget_unit_mismatch",
      `the budget of ${maxCredits} credits cannot hold ${named.join("; ")}: their cost is not in credits; nothing was sent. State what one unit is worth in credits (credits_per_unit under ${providers.map((name) => `providers.${name}`).join(", ")}) or run without a credit budget (no max_credits or --max-credits).`,
      // Refused before anything was sent, like an invalid pipeline.
      { category: "invalid" },
    );
    this.units = units;
    this.maxCredits = maxCredits;
  }
}
