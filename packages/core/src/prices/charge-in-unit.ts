/**
 * An amount to 1e-9 of its unit: what floating point adds to a sum of prices (0.1 + 0.2 is
 * 0.30000000000000004) is dropped, and no price is finer than that.
 *
 * @example
 * ```ts
 * exactAmount(0.1 + 0.2); // 0.3
 * ```
 */
export function exactAmount(amount: number): number {
  return Math.round(amount * 1e9) / 1e9;
}

/**
 * What a charge of `amount` comes to in the unit its price is stated in: credits are billed
 * whole, rounded up (as the service bills them); any other unit (usd, eur, characters)
 * keeps its exact amount ({@link exactAmount}), so $0.05 an image stays 0.05.
 *
 * @example
 * ```ts
 * chargeInUnit(1.8); // 2 (credits)
 * chargeInUnit(0.05, "usd"); // 0.05
 * chargeInUnit(110.00000000000001, "credits"); // 110
 * ```
 */
export function chargeInUnit(amount: number, unit?: string): number {
  const exact = exactAmount(amount);
  return unit === undefined || unit === "credits" ? Math.ceil(exact) : exact;
}
