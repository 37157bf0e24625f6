import { createHash } from "node:crypto";
import { type SpokenWord, spokenWords } from "./synthesize-speech.js";

/** What the simulator knows of audio it spoke: the text, each word's timing, its sentences. */
export interface SpokenRecord {
  text: string;
  words: SpokenWord[];
  /** One per sentence: its text and span. */
  segments: { text: string; start: number; end: number }[];
  duration: number;
  model: string;
  voice: string;
}

/**
 * Audio the simulator made, by the sha256 of the bytes it answered with: a transcription of
 * exactly those bytes is recognised and given back word for word, with the exact timings.
 *
 * @example
 * const spoken = createSpokenRegistry(); spoken.remember(bytes, record); spoken.recall(bytes);
 */
export function createSpokenRegistry() {
  const records = new Map<string, SpokenRecord>();
  const key = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
  return {
    remember(bytes: Buffer, record: SpokenRecord): void {
      records.set(key(bytes), record);
    },
    recall(bytes: Buffer): SpokenRecord | undefined {
      return records.get(key(bytes));
    },
  };
}

/** The registry made by {@link createSpokenRegistry}. */
export type SpokenRegistry = ReturnType<typeof createSpokenRegistry>;

/** One segment per sentence of `text`, spanning its words. */
export function sentencesOf(text: string, words: SpokenRecord["words"]): SpokenRecord["segments"] {
  const tokens = spokenWords(text);
  const segments: SpokenRecord["segments"] = [];
  let first = 0;
  for (const [index, token] of tokens.entries()) {
    const last = index === tokens.length - 1;
    if (!last && !/[.!?]["')\]]*$/.test(token)) continue;
    const start = words[first]?.start ?? 0;
    const end = words[index]?.end ?? start;
    segments.push({ text: tokens.slice(first, index + 1).join(" "), start, end });
    first = index + 1;
  }
  return segments;
}
