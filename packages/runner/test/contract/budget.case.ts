// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { expect } from "vitest";
import { contractCase, serviceOptions, uniqueWord } from "./case-helpers.js";
import type { ContractContext } from "./index.js";

const clip = { model: "reel-video-2-lite", seconds: 1, size: "720x480" };

/** A run whose certain cost is over its budget is refused before its first request. */
export function budgetEstimateCase(context: ContractContext): void {
  contractCase(
    context,
    "budget: a run whose certain cost is over max_credits is refused before any request",
    async () => {
      const word = uniqueWord();
      const before = context.simulator().stats();
      // Six 1 s 720x480 clips at 4 credits each: 24, over a budget of 10.
      const run = context.harness().run(
        {
          name: "contract-estimate",
          steps: [
            { id: "title", chat: { model: "reel-chat-1", prompt: `A title for ${word}` } },
            {
              id: "clips",
              for_each: [0, 1, 2, 3, 4, 5],
              video: { ...clip, prompt: `${word} \${{ item }}` },
            },
          ],
        },
        serviceOptions(context, { maxCredits: 10, cache: false }),
      );
      const error = await run.then(
        () => undefined,
        (caught: unknown) => caught as { code?: string; message: string },
      );
      expect(error?.code).toBe("budget_exceeded_by_estimate");
      expect(error?.message).toContain("the run is expected to cost 24 credits");
      expect(error?.message).toContain("clips: 6 × 4 = 24");
      const after = context.simulator().stats();
      expect(after.videoJobs.created).toBe(before.videoJobs.created);
      expect(after.chatCompletions).toBe(before.chatCompletions);
    },
  );
}

/** A storyboard whose number of scenes the chat decides (`4 scenes` asked, nothing bounds it). */
function openStoryboard(word: string) {
  return {
    name: "contract-budget",
    defaults: { video: clip },
    steps: [
      {
        id: "storyboard",
        chat: {
          model: "reel-chat-1",
          prompt: `4 scenes about ${word}`,
          schema: {
            type: "object",
            required: ["scenes"],
            properties: { scenes: { type: "array", minItems: 1, items: { type: "string" } } },
          },
        },
      },
      {
        id: "clips",
        for_each: "${{ steps.storyboard.outputs.json.scenes }}",
        max_parallel: 4,
        video: { prompt: `${word} \${{ index }}: \${{ item }}` },
      },
    ],
  };
}

/**
 * Once a fan-out's length is known, a budget that cannot pay for all of it stops the run
 * before its first job is sent (`budget_reached`, saying what is missing).
 */
export function budgetFanOutCase(context: ContractContext): void {
  contractCase(
    context,
    "budget: a fan-out the budget cannot wholly pay for stops before its first job",
    async () => {
      const word = uniqueWord();
      const before = context.simulator().stats().videoJobs.created;
      const result = await context
        .harness()
        .run(
          openStoryboard(word),
          serviceOptions(context, { maxCredits: 10, maxVideos: 4, cache: false }),
        );
      expect(result.status).toBe("budget_reached");
      expect(result.error?.code).toBe("budget_reached");
      expect(result.error?.message).toContain("its 4 items need 16 credits (4 × 4)");
      expect(context.simulator().stats().videoJobs.created - before).toBe(0);
      expect(result.totals.credits).toBe(0);
    },
  );
}

/**
 * Jobs of a fan-out sized at run time reserve their price before they are sent: jobs sent
 * together never pass the budget, and the run ends `budget_reached`, not `succeeded` (a run
 * that allows a part of a fan-out).
 */
export function budgetReservationCase(context: ContractContext): void {
  contractCase(
    context,
    "budget: parallel jobs reserve their price, never pass max_credits, and the run ends budget_reached",
    async () => {
      const word = uniqueWord();
      const before = context.simulator().stats().videoJobs.created;
      const result = await context.harness().run(
        openStoryboard(word),
        serviceOptions(context, {
          maxCredits: 10,
          maxVideos: 4,
          cache: false,
          allowPartial: true,
        }),
      );
      // Two 4-credit clips fit in 10; a third would not, whatever finished first.
      expect(result.error).toMatchObject({ code: "budget_reached" });
      expect(result.status).toBe("budget_reached");
      expect(result.error?.code).toBe("budget_reached");
      const created = context.simulator().stats().videoJobs.created - before;
      expect(created).toBe(2);
      expect(result.totals.credits).toBe(8);
    },
  );
}

/**
 * A fan-out whose length is known before the run, over the budget, with `allowPartial`: the
 * run is not refused up front; it makes what fits and ends `budget_reached`, as one whose
 * length is learnt at run time does.
 */
export function budgetPartialKnownCase(context: ContractContext): void {
  contractCase(
    context,
    "budget: allowPartial makes what fits of a fan-out known before the run, then budget_reached",
    async () => {
      const word = uniqueWord();
      const before = context.simulator().stats();
      // Six 4-credit clips (24) known now, a budget of 10: two fit.
      const result = await context.harness().run(
        {
          name: "contract-partial",
          steps: [
            { id: "title", chat: { model: "reel-chat-1", prompt: `A title for ${word}` } },
            {
              id: "clips",
              for_each: [0, 1, 2, 3, 4, 5],
              video: { ...clip, prompt: `${word} \${{ item }}` },
            },
          ],
        },
        serviceOptions(context, { maxCredits: 10, cache: false, allowPartial: true }),
      );
      expect(result.status).toBe("budget_reached");
      expect(result.error?.code).toBe("budget_reached");
      const after = context.simulator().stats();
      expect(after.videoJobs.created - before.videoJobs.created).toBe(2);
      expect(after.chatCompletions - before.chatCompletions).toBe(1);
      expect(result.totals.credits).toBe(8);
      expect(result.totals.credits).toBe(after.creditsCharged - before.creditsCharged);
    },
  );
}

/**
 * With `allowPartial`, a run that could not make one item of each fan-out is still refused
 * before its first request: it would pay for steps that make nothing whole.
 */
export function budgetPartialRefusedCase(context: ContractContext): void {
  contractCase(
    context,
    "budget: allowPartial still refuses, before any request, a run that cannot pay one item of each fan-out",
    async () => {
      const word = uniqueWord();
      const before = context.simulator().stats();
      // One 4-credit clip of each of three fan-outs is 12, over 10.
      const fanOut = (id: string) => ({
        id,
        for_each: [0, 1],
        video: { ...clip, prompt: `${word} ${id} \${{ item }}` },
      });
      const error = await context
        .harness()
        .run(
          { name: "contract-partial-refused", steps: [fanOut("a"), fanOut("b"), fanOut("c")] },
          serviceOptions(context, { maxCredits: 10, cache: false, allowPartial: true }),
        )
        .then(
          () => undefined,
          (caught: unknown) => caught as { code?: string; message: string },
        );
      expect(error?.code).toBe("budget_exceeded_by_estimate");
      expect(error?.message).toContain("at least 12 credits (a: 4; b: 4; c: 4)");
      expect(error?.message).toContain("even when it makes only what fits");
      expect(context.simulator().stats().videoJobs.created).toBe(before.videoJobs.created);
    },
  );
}
