// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { existsSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import { contractCase, serviceOptions, uniqueWord } from "./case-helpers.js";
import type { ContractContext } from "./index.js";

/** Credits the simulator charged for speech and transcriptions so far. */
function spokenCredits(context: ContractContext): number {
  const { creditsByEndpoint } = context.simulator().stats();
  return creditsByEndpoint.speech + creditsByEndpoint.transcriptions;
}

/** A narration per item: spoken, its words timed by a transcription, each request paid once. */
export function speechCase(context: ContractContext): void {
  contractCase(
    context,
    "speech: a narration per item is spoken and its words timed, each request paid once",
    async () => {
      const word = uniqueWord();
      const before = spokenCredits(context);
      const result = await context.harness().run(
        {
          name: "contract-speech",
          steps: [
            {
              id: "narration",
              for_each: ["The fox wakes.", "It runs home."],
              speech: {
                model: "reel-voice-1",
                voice: "ava",
                input: `\${{ item }} ${word}`,
                words: { model: "reel-transcribe-1" },
              },
            },
          ],
          outputs: { narration: "${{ steps.narration.outputs }}" },
        },
        serviceOptions(context, { cache: false }),
      );
      expect(result.error).toBeUndefined();
      expect(result.status).toBe("succeeded");
      const spoken = result.outputs.narration as {
        file: string;
        duration: number;
        words: { word: string; start: number; end: number }[];
      }[];
      expect(spoken).toHaveLength(2);
      for (const narration of spoken) {
        expect(existsSync(narration.file)).toBe(true);
        expect(narration.duration).toBeGreaterThan(0);
        expect(narration.words.map((entry) => entry.word.toLowerCase())).toContain(word);
        for (const timed of narration.words) {
          expect(timed.start).toBeLessThan(timed.end);
          expect(timed.end).toBeLessThanOrEqual(narration.duration + 0.05);
        }
      }
      // What the run says it spent is what the service charged: each request once.
      expect(result.totals.credits).toBe(spokenCredits(context) - before);
      expect(result.totals.credits).toBeGreaterThan(0);
    },
  );
}

/** Characters drawn once, then each scene's keyframe drawn with them: each image paid once. */
export function imageCase(context: ContractContext): void {
  contractCase(
    context,
    "image: characters, then keyframes drawn with them as references, each image paid once",
    async () => {
      const word = uniqueWord();
      const before = context.simulator().stats().creditsByEndpoint.images;
      const result = await context.harness().run(
        {
          name: "contract-image",
          defaults: { image: { model: "reel-image-1", size: "256x256" } },
          steps: [
            { id: "characters", image: { prompt: `two characters of ${word}`, n: 2 } },
            {
              id: "keyframes",
              for_each: ["dawn", "dusk"],
              image: {
                prompt: `${word} at \${{ item }}`,
                references: ["${{ steps.characters.outputs.files }}"],
              },
            },
          ],
          outputs: { keyframes: "${{ steps.keyframes.outputs.*.file }}" },
        },
        serviceOptions(context, { cache: false }),
      );
      expect(result.error).toBeUndefined();
      expect(result.status).toBe("succeeded");
      const keyframes = result.outputs.keyframes as string[];
      expect(keyframes).toHaveLength(2);
      for (const file of keyframes) {
        expect(existsSync(file)).toBe(true);
        expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
      }
      const charged = context.simulator().stats().creditsByEndpoint.images - before;
      expect(charged).toBeGreaterThan(0);
      expect(result.totals.credits).toBe(charged);
    },
  );
}
