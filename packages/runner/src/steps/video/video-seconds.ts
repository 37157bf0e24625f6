import { InvalidRequestError, type VideoModelSpec } from "../../pipeline/core-shim.js";

/** `seconds: { at_least: … }`: the clip is at least this long (a narration's duration). */
export interface AtLeastSeconds {
  at_least: number | string;
}

/**
 * The least length a `seconds: { at_least }` asks for, or undefined for the number form
 * (or a value not known yet).
 * @example secondsAtLeast({ at_least: 3.2 }) // 3.2
 * @example secondsAtLeast(4) // undefined
 */
export function secondsAtLeast(seconds: unknown): number | undefined {
  if (seconds === null || typeof seconds !== "object" || Array.isArray(seconds)) return undefined;
  const value = Number((seconds as { at_least?: unknown }).at_least);
  return Number.isFinite(value) ? value : undefined;
}

/** True for the `{ at_least }` form, whatever its value. */
export function isAtLeastSeconds(seconds: unknown): seconds is AtLeastSeconds {
  return seconds !== null && typeof seconds === "object" && "at_least" in seconds;
}

/**
 * The shortest length the model accepts that is at least `atLeast` seconds: within a range,
 * the whole second at or above it (never below the range's least); from a list, the
 * smallest entry at or above it; without known limits, the whole second at or above it. A
 * length no accepted one reaches throws InvalidRequestError naming `seconds` (before anything
 * is paid), with what the model accepts and what to do.
 * @example roundUpSeconds(3.2, { id: "m", seconds: [4, 8, 12] }) // 4
 * @example roundUpSeconds(3.2, { id: "m", seconds: { min: 1, max: 10 } }) // 4
 */
export function roundUpSeconds(atLeast: number, model: VideoModelSpec | undefined): number {
  if (!(atLeast > 0)) {
    throw new InvalidRequestError(
      "seconds",
      `seconds.at_least must be a length above 0; got ${atLeast}.`,
    );
  }
  const whole = Math.ceil(atLeast - 1e-9);
  const limits = model?.seconds;
  if (!limits) return whole;
  const list = Array.isArray(limits) ? (limits as readonly number[]) : undefined;
  const range = list ? undefined : (limits as { min: number; max: number });
  const accepted = list
    ? [...list].sort((a, b) => a - b).find((length) => length >= atLeast - 1e-9)
    : range && whole <= range.max
      ? Math.max(range.min, whole)
      : undefined;
  if (accepted === undefined) {
    const longest = list ? Math.max(...list) : (range?.max ?? whole);
    throw new InvalidRequestError(
      "seconds",
      `A clip of at least ${round(atLeast)} s is asked for, but ${model?.id} makes clips of at most ${longest} s. Shorten the narration (or split it over two scenes), or choose a video model with longer clips.`,
    );
  }
  return accepted;
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;
