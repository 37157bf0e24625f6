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

/** How far a size's ratio may be from an accepted one and still be it (854x480 is 16:9). */
const RATIO_TOLERANCE = 0.01;

/**
 * The aspect ratio of `accepted` a `"WxH"` size has (`1280x720` → `16:9`): its reduced ratio,
 * else the accepted ratio within 1% of it, as the usual rounded sizes are (`854x480`,
 * `1366x768` → `16:9`); undefined for any other size, or one that is not `WxH`.
 *
 * @example
 * ```ts
 * acceptedAspectRatio("720x1280", ["16:9", "9:16"]); // "9:16"
 * acceptedAspectRatio("854x480", ["16:9", "9:16"]); // "16:9"
 * ```
 */
export function acceptedAspectRatio(size: string, accepted: readonly string[]): string | undefined {
  const found = sizeDimensions(size);
  if (!found) return undefined;
  const divisor = gcd(found.width, found.height);
  const ratio = `${found.width / divisor}:${found.height / divisor}`;
  if (accepted.includes(ratio)) return ratio;
  const wanted = found.width / found.height;
  let best: { ratio: string; off: number } | undefined;
  for (const candidate of accepted) {
    const [w, h] = candidate.split(":").map(Number);
    if (!w || !h) continue;
    const off = Math.abs(wanted - w / h) / (w / h);
    if (off <= RATIO_TOLERANCE && (!best || off < best.off)) best = { ratio: candidate, off };
  }
  return best?.ratio;
}
