import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

interface Message {
  role: string;
  content: unknown;
}

function toolMessages(outputs: unknown): string[] {
  const messages = (outputs as { messages: Message[] }).messages;
  return messages.filter((m) => m.role === "tool").map((m) => String(m.content));
}

describe("chat tools", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("runs run: commands and sub-pipelines as tools, and returns a failing command's error to the model", async () => {
    process.env.REELSMITH_API_KEY = service.simulator.apiKey;
    try {
      const result = await runPipeline(
        join(import.meta.dirname, "fixtures", "tools.yaml"),
        service.options({ cache: false }),
      );
      expect(result.error).toBeUndefined();
      expect(result.status).toBe("succeeded");
      const counted = toolMessages(result.steps.count?.outputs);
      expect(counted).toHaveLength(1);
      const answer = JSON.parse(counted[0]!);
      expect(answer).toMatchObject({ counted_by: "word-count.mjs", saw_api_key: false });
      expect(answer.words).toBeGreaterThan(0);
      expect(
        String((result.steps.count?.outputs as { text?: string } | undefined)?.text ?? "").length,
      ).toBeGreaterThan(0);

      const broken = toolMessages(result.steps.broken?.outputs);
      expect(broken[0]).toMatch(/^Error: .*exited with code 3.*the database is on fire/);

      const nested = toolMessages(result.steps.nested?.outputs);
      expect(JSON.parse(nested[0]!)).toMatchObject({
        from: "sub-pipeline",
        summary: expect.any(String),
      });
      expect(
        existsSync(join(result.runDir, "subruns", "nested-summarize-1", "journal.jsonl")),
      ).toBe(true);
      expect(result.totals.totalTokens).toBeGreaterThan(0);
    } finally {
      delete process.env.REELSMITH_API_KEY;
    }
  });
});
