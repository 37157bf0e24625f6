// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { expect } from "vitest";
import { contractCase, serviceOptions, uniqueWord } from "./case-helpers.js";
import type { ContractContext } from "./index.js";

/**
 * A gate (`approve:` step) without a decision: the run ends `waiting`, the step that does not
 * depend on it finished, nothing behind it started (no job); with autoApprove it goes through.
 */
export function gateCase(context: ContractContext): void {
  contractCase(
    context,
    "gate: a run stops waiting at an approve step, nothing behind it submitted; autoApprove passes it",
    async () => {
      const word = uniqueWord();
      const pipeline = {
        name: "contract-gate",
        steps: [
          { id: "draft", chat: { model: "reel-chat-1", prompt: `Two words on ${word}` } },
          { id: "aside", chat: { model: "reel-chat-1", prompt: `A title for ${word}` } },
          {
            id: "gate",
            approve: { message: "Is the draft right? ${{ steps.draft.outputs.text }}" },
          },
          {
            id: "clips",
            needs: ["gate"],
            for_each: [0, 1],
            video: {
              model: "reel-video-2-lite",
              seconds: 1,
              size: "720x480",
              prompt: `${word} \${{ item }}`,
            },
          },
        ],
        outputs: { by: "${{ steps.gate.outputs.by }}" },
      };
      const before = context.simulator().stats().videoJobs.created;
      const waiting = await context
        .harness()
        .run(pipeline, serviceOptions(context, { cache: false }));
      expect(waiting.status).toBe("waiting");
      expect(waiting.error).toBeUndefined();
      expect(waiting.steps.gate?.status).toBe("waiting");
      expect(waiting.steps.aside?.status).toBe("succeeded");
      expect(waiting.steps.clips?.status).toBe("waiting");
      expect(context.simulator().stats().videoJobs.created).toBe(before);

      const passed = await context
        .harness()
        .run(pipeline, serviceOptions(context, { cache: false, autoApprove: true }));
      expect(passed.status).toBe("succeeded");
      expect(passed.outputs.by).toBe("auto");
      expect(context.simulator().stats().videoJobs.created).toBe(before + 2);
    },
  );
}
