// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { failWord } from "@reelsmith/simulator";
import { expect } from "vitest";
import { contractCase, serviceOptions, uniqueWord } from "./case-helpers.js";
import type { ContractContext } from "./index.js";

/** A failed video item fails its step; dependents are skipped unless the failure is continued. */
export function failureCase(context: ContractContext): void {
  contractCase(
    context,
    "failure: a failed clip fails its step and skips what needs it; continue_on_error goes on",
    async () => {
      const word = uniqueWord();
      const pipeline = (continueOnError: boolean) => ({
        name: "contract-failure",
        defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" } },
        steps: [
          {
            id: "clips",
            for_each: ["calm", failWord],
            continue_on_error: continueOnError,
            video: { prompt: `${word} \${{ item }} ${continueOnError}` },
          },
          { id: "after", needs: ["clips"], chat: { model: "reel-chat-1", prompt: "done?" } },
        ],
      });
      const stopped = await context.harness().run(pipeline(false), serviceOptions(context));
      expect(stopped.status).toBe("failed");
      expect(stopped.steps.clips?.status).toBe("failed");
      expect(stopped.steps.after?.status).toBe("skipped");
      expect(stopped.error?.message).toContain(failWord);

      const continued = await context.harness().run(pipeline(true), serviceOptions(context));
      expect(continued.status).toBe("succeeded");
      expect(continued.steps.clips?.status).toBe("failed");
      expect(continued.steps.after?.status).toBe("succeeded");
    },
  );
}
