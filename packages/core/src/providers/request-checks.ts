import { InvalidRequestError, type RequestProblem } from "../errors/invalid-request-error.js";

/**
 * Throws the problems a provider found in a request before sending it, as one
 * `InvalidRequestError` naming the first field and carrying them all; nothing when none.
 *
 * @example
 * ```ts
 * throwRequestProblems(falVideoProblems(params));
 * ```
 */
export function throwRequestProblems(problems: readonly RequestProblem[]): void {
  const first = problems[0];
  if (!first) return;
  throw new InvalidRequestError(
    first.field,
    problems.map((problem) => problem.message).join("; "),
    problems,
  );
}

/** The width and height of a `"WxH"` size, or undefined when it is not one. */
export function sizeDimensions(size: string): { width: number; height: number } | undefined {
  const match = /^(\d+)x(\d+)$/.exec(size.trim());
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The reduced aspect ratio of a `"WxH"` size (`1280x720` → `16:9`) when it is one of
 * `accepted`, else undefined (also for a size that is not `WxH`).
 *
 * @example
 * ```ts
 * acceptedAspectRatio("720x1280", ["16:9", "9:16"]); // "9:16"
 * ```
 */
export function acceptedAspectRatio(size: string, accepted: readonly string[]): string | undefined {
  const found = sizeDimensions(size);
  if (!found) return undefined;
  const divisor = gcd(found.width, found.height);
  const ratio = `${found.width / divisor}:${found.height / divisor}`;
  return accepted.includes(ratio) ? ratio : undefined;
}
