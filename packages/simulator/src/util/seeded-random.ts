import { createHash } from "node:crypto";

/** A deterministic source of numbers in [0, 1). */
export type RandomSource = () => number;

/**
 * A seeded pseudo-random generator (mulberry32) whose seed is the hash of `parts`.
 *
 * @example
 * const random = createSeededRandom(42, "chat", conversationJson); random(); // same every run
 */
export function createSeededRandom(...parts: unknown[]): RandomSource {
  let state = hashToUint32(
    parts.map((part) => (typeof part === "string" ? part : JSON.stringify(part))).join("\u0000"),
  );
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** First 32 bits of the SHA-256 of `text`. */
export function hashToUint32(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0);
}

/** Pick one element of a non-empty list. */
export function pick<T>(random: RandomSource, items: readonly T[]): T {
  return items[Math.floor(random() * items.length) % items.length] as T;
}
