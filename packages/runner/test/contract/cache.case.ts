// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { existsSync } from "node:fs";
import { expect } from "vitest";
import { contractCase, serviceOptions, uniqueWord } from "./case-helpers.js";
import type { ContractContext } from "./index.js";

/** The same clip asked for again comes from the cache: no second job, the file is there. */
export function cacheCase(context: ContractContext): void {
  contractCase(
    context,
    "cache: an identical second run is served from the cache without a new job",
    async () => {
      const pipeline = {
        name: "contract-cache",
        steps: [
          {
            id: "clip",
            video: {
              model: "reel-video-2-lite",
              seconds: 1,
              size: "720x480",
              prompt: `cached ${uniqueWord()}`,
            },
          },
        ],
        outputs: { file: "${{ steps.clip.outputs.file }}" },
      };
      const before = context.simulator().stats().videoJobs.created;
      const first = await context.harness().run(pipeline, serviceOptions(context));
      expect(first.status).toBe("succeeded");
      const second = await context.harness().run(pipeline, serviceOptions(context));
      expect(second.status).toBe("succeeded");
      expect(context.simulator().stats().videoJobs.created - before).toBe(1);
      expect(existsSync(String(second.outputs.file))).toBe(true);
      expect(second.outputs.file).not.toBe(first.outputs.file);
    },
  );
}
