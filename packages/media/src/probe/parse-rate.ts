/**
 * A frame rate fraction such as `30000/1001` as a number (0 for `0/0` or garbage).
 *
 * @example
 * parseRate("30000/1001"); // 29.97002997002997
 */
export function parseRate(rate: string): number {
  const [numerator, denominator = "1"] = rate.split("/");
  const value = Number(numerator) / Number(denominator);
  return Number.isFinite(value) ? value : 0;
}
