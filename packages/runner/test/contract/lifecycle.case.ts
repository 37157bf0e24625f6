import { expect } from "vitest";
import { contractCase, serviceOptions, uniqueWord } from "./case-helpers.js";
import type { ContractContext } from "./index.js";

/**
 * The run's own records are the lifecycle's, whichever host keeps the journal: `run.start`
 * (what later sessions keep: the pipeline's hash, inputs, budget and options) first, and
 * `run.end` with the run's status last.
 */
export function lifecycleCase(context: ContractContext): void {
  contractCase(
    context,
    "lifecycle: a run journals run.start first and run.end last, the same records on every executor",
    async () => {
      const result = await context.harness().run(
        {
          name: "contract-lifecycle",
          steps: [
            { id: "title", chat: { model: "reel-chat-1", prompt: `A title for ${uniqueWord()}` } },
          ],
        },
        serviceOptions(context, { maxCredits: 50, cache: false }),
      );
      expect(result.status).toBe("succeeded");
      const own = result.journal.filter((record) => String(record.type).startsWith("run."));
      expect(own.map((record) => record.type)).toEqual(["run.start", "run.end"]);
      expect(result.journal[0]).toMatchObject({
        type: "run.start",
        name: "contract-lifecycle",
        pipelineHash: expect.any(String),
        inputs: {},
        maxCredits: 50,
        options: { maxCredits: 50, cache: false },
        time: expect.any(String),
      });
      expect(result.journal.at(-1)).toMatchObject({ type: "run.end", status: "succeeded" });
    },
  );
}
