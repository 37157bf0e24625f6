// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { existsSync } from "node:fs";
import { expect } from "vitest";
import { contractCase, serviceOptions, uniqueWord } from "./case-helpers.js";
import type { ContractContext } from "./index.js";

/** chat → for_each video → ffmpeg: outputs flow between steps and each clip is paid once. */
export function dagCase(context: ContractContext): void {
  contractCase(
    context,
    "dag: outputs flow from chat to a fan-out of clips to ffmpeg, each clip submitted once",
    async () => {
      const word = uniqueWord();
      const before = context.simulator().stats().videoJobs.created;
      const result = await context.harness().run(
        {
          name: "contract-dag",
          defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" } },
          steps: [
            {
              id: "storyboard",
              chat: {
                model: "reel-chat-1",
                prompt: `Three scenes about ${word}`,
                schema: {
                  type: "object",
                  required: ["scenes"],
                  properties: {
                    scenes: {
                      type: "array",
                      minItems: 3,
                      maxItems: 3,
                      items: {
                        type: "object",
                        required: ["description"],
                        properties: { description: { type: "string" } },
                      },
                    },
                  },
                },
              },
            },
            {
              id: "clips",
              for_each: "${{ steps.storyboard.outputs.json.scenes }}",
              video: {
                prompt: `${word} \${{ index }}: \${{ item.description }}`,
                output: "clips/scene-${{ index }}.mp4",
              },
            },
            {
              id: "final",
              ffmpeg: { concat: "${{ steps.clips.outputs.*.file }}", output: "final.mp4" },
            },
          ],
          outputs: { video: "${{ steps.final.outputs.file }}" },
        },
        serviceOptions(context, { cache: false }),
      );
      expect(result.error).toBeUndefined();
      expect(result.status).toBe("succeeded");
      expect(context.simulator().stats().videoJobs.created - before).toBe(3);
      const clips = result.steps.clips?.outputs as { file: string; credits: number }[];
      expect(clips).toHaveLength(3);
      for (const clip of clips) expect(existsSync(clip.file)).toBe(true);
      expect(existsSync(String(result.outputs.video))).toBe(true);
      expect(result.totals.made.videos).toBe(3);
      expect(result.totals.credits).toBe(clips.reduce((sum, clip) => sum + clip.credits, 0));
    },
  );
}
