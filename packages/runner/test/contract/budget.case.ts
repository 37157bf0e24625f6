// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { expect } from "vitest";
import { contractCase, serviceOptions, uniqueWord } from "./case-helpers.js";
import type { ContractContext } from "./index.js";

/** A budget below the price of the fan-out stops submissions and fails the run. */
export function budgetCase(context: ContractContext): void {
  contractCase(
    context,
    "budget: past max_credits no new job is submitted and the run fails with BudgetExceededError",
    async () => {
      const word = uniqueWord();
      const before = context.simulator().stats().videoJobs.created;
      // Each 1 s 720x480 clip costs 4 credits; 6 clips one at a time would cost 24.
      const result = await context.harness().run(
        {
          name: "contract-budget",
          steps: [
            {
              id: "clips",
              for_each: [0, 1, 2, 3, 4, 5],
              max_parallel: 1,
              video: {
                model: "reel-video-2-lite",
                seconds: 1,
                size: "720x480",
                prompt: `${word} \${{ item }}`,
              },
            },
          ],
        },
        serviceOptions(context, { maxCredits: 10, maxVideos: 1, cache: false }),
      );
      expect(result.status).toBe("failed");
      expect(result.error?.name).toBe("BudgetExceededError");
      const created = context.simulator().stats().videoJobs.created - before;
      expect(created).toBeGreaterThanOrEqual(1);
      expect(created).toBeLessThan(6);
      expect(result.totals.credits).toBeLessThanOrEqual(12);
    },
  );
}
