/**
 * A duration of a profile in milliseconds: `"5s"`, `"500ms"`, `"1.5m"`, or a number of
 * seconds. Throws a TypeError naming the expected forms otherwise.
 *
 * @example
 * ```ts
 * parseDuration("500ms"); // 500
 * parseDuration(5); // 5000
 * ```
 */
export function parseDuration(value: string | number): number {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return value * 1000;
  const match = typeof value === "string" ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)\s*$/.exec(value) : null;
  if (!match) {
    throw new TypeError(
      `Expected a duration such as "5s", "500ms" or a number of seconds, got ${JSON.stringify(value)}`,
    );
  }
  const amount = Number(match[1]);
  const unit = match[2];
  return unit === "ms" ? amount : unit === "s" ? amount * 1000 : amount * 60_000;
}
