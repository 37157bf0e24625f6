import type { SecondsSpec, SizesSpec } from "./types.js";

/**
 * Whether a whole number of seconds is allowed by a model's `seconds` (a range or a list).
 *
 * @example
 * ```ts
 * secondsAllowed({ min: 1, max: 8 }, 8); // true
 * secondsAllowed([4, 8, 12], 6); // false
 * ```
 */
export function secondsAllowed(spec: SecondsSpec, seconds: number): boolean {
  if (isList(spec)) return spec.includes(seconds);
  return seconds >= spec.min && seconds <= spec.max;
}

/**
 * Whether a `"WxH"` size is allowed by a model's `sizes` (a list or width/height ranges).
 *
 * @example
 * ```ts
 * sizeAllowed({ width: { min: 480, max: 1920 }, height: { min: 480, max: 1920 } }, "1280x720"); // true
 * ```
 */
export function sizeAllowed(spec: SizesSpec, size: string): boolean {
  if (isList(spec)) return spec.includes(size);
  const dimensions = parseSize(size);
  if (!dimensions) return false;
  const { width, height } = dimensions;
  return (
    width >= spec.width.min &&
    width <= spec.width.max &&
    height >= spec.height.min &&
    height <= spec.height.max
  );
}

/**
 * The allowed lengths in words, for messages.
 *
 * @example
 * ```ts
 * describeSeconds({ min: 1, max: 8 }); // "1 to 8 seconds"
 * describeSeconds([4, 8, 12]); // "4, 8 or 12 seconds"
 * ```
 */
export function describeSeconds(spec: SecondsSpec): string {
  if (isList(spec)) return `${orList(spec.map(String))} seconds`;
  return `${spec.min} to ${spec.max} seconds`;
}

/**
 * The allowed sizes in words, for messages.
 *
 * @example
 * ```ts
 * describeSizes(["1280x720", "720x1280"]); // "1280x720 or 720x1280"
 * describeSizes({ width: { min: 480, max: 1920 }, height: { min: 480, max: 1080 } });
 * // "480–1920 wide and 480–1080 high"
 * ```
 */
export function describeSizes(spec: SizesSpec): string {
  if (isList(spec)) return orList([...spec]);
  return `${spec.width.min}–${spec.width.max} wide and ${spec.height.min}–${spec.height.max} high`;
}

/**
 * The longest clip a `seconds` spec allows.
 *
 * @example
 * ```ts
 * longestSeconds([4, 8, 12]); // 12
 * ```
 */
export function longestSeconds(spec: SecondsSpec): number {
  return isList(spec) ? Math.max(...spec) : spec.max;
}

/** `"1280x720"` → `{ width: 1280, height: 720 }`; undefined when it is not `WxH`. */
export function parseSize(size: string): { width: number; height: number } | undefined {
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** `["a", "b", "c"]` → `"a, b or c"`. */
export function orList(values: readonly string[]): string {
  if (values.length <= 1) return values.join("");
  return `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}

function isList<T>(value: T): value is Extract<T, readonly unknown[]> {
  return Array.isArray(value);
}
