import { describe, expect, it } from "vitest";
import { spokenWords, synthesizeSpeech } from "./synthesize-speech.js";
import { encodeWav, readWav } from "./wav.js";

/** Root mean square of the samples between two times, in dB below full scale. */
function level(samples: Int16Array, rate: number, from: number, to: number): number {
  let sum = 0;
  const start = Math.round(from * rate);
  const end = Math.round(to * rate);
  for (let index = start; index < end; index += 1) sum += ((samples[index] ?? 0) / 32768) ** 2;
  return 10 * Math.log10(sum / Math.max(1, end - start) + 1e-12);
}

describe("synthesizeSpeech", () => {
  it("keeps words with letters or digits, punctuation on them", () => {
    expect(spokenWords("Hello, world — again. 12 ships!")).toEqual([
      "Hello,",
      "world",
      "again.",
      "12",
      "ships!",
    ]);
  });

  it("speaks every word where it says, with silence between the words", async () => {
    const { pcm, words, duration } = await synthesizeSpeech({
      text: "Twelve ships wait, at dawn.",
      voice: "slt",
    });
    expect(words.map((word) => word.word)).toEqual(["Twelve", "ships", "wait", "at", "dawn"]);
    expect(duration).toBeCloseTo(pcm.samples.length / pcm.sampleRate, 2);
    let previous = 0;
    for (const word of words) {
      expect(word.start).toBeGreaterThanOrEqual(previous);
      expect(word.end - word.start).toBeGreaterThan(0.05);
      // Voiced inside the word, silent in the gap before it.
      expect(level(pcm.samples, pcm.sampleRate, word.start, word.end)).toBeGreaterThan(-40);
      if (previous > 0)
        expect(level(pcm.samples, pcm.sampleRate, previous, word.start)).toBeLessThan(-60);
      previous = word.end;
    }
    expect(previous).toBeLessThan(duration);
    // The comma's pause is longer than a pause between words.
    const [, ships, wait, at] = words;
    if (!ships || !wait || !at) throw new Error("words missing");
    expect(at.start - wait.end).toBeGreaterThan(wait.start - ships.end);
  });

  it("speaks faster at a higher speed", async () => {
    const slow = await synthesizeSpeech({
      text: "A storm over the harbour.",
      voice: "rms",
      speed: 0.5,
    });
    const fast = await synthesizeSpeech({
      text: "A storm over the harbour.",
      voice: "rms",
      speed: 2,
    });
    expect(fast.duration).toBeLessThan(slow.duration * 0.6);
  });

  it("writes WAV files that read back the same", () => {
    const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);
    expect(readWav(encodeWav({ sampleRate: 16_000, samples }))).toEqual({
      sampleRate: 16_000,
      samples,
    });
  });
});
