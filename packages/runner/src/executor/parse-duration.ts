/**
 * Parses a step `timeout`: milliseconds as a number, or a string like "500ms", "30s", "5m", "1h".
 * @example parseDuration("30s") // 30000
 */
export function parseDuration(value: string | number | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0)
      throw new TypeError(`Expected a positive duration, got ${value}`);
    return value;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (!match)
    throw new TypeError(`Expected a duration like "30s", "5m" or milliseconds, got "${value}"`);
  const amount = Number(match[1]);
  const unit = match[2] ?? "ms";
  const factor = unit === "h" ? 3_600_000 : unit === "m" ? 60_000 : unit === "s" ? 1000 : 1;
  return amount * factor;
}
