import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import { afterEach, describe, expect, it } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

function submittedFacts(runDir: string) {
  return readJournal(join(runDir, "journal.jsonl"))
    .filter((r) => r.type === "fact" && r.name === "video.submitted")
    .map((r) => r.data as { jobId: string; adopted?: string });
}

describe("a video submission whose answer was lost (connection dropped after the request)", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it.each([
    ["found in the service's job list and adopted", false, "list"],
    ["sent again with its Idempotency-Key to a service that honours it", true, "idempotency-key"],
  ] as const)("is %s: one job per scene, run completes", async (_how, honours, adopted) => {
    // The first two submissions create their job and lose the answer.
    service = await startTestService({
      faults: { rules: [{ kind: "drop", target: "videos.create", sequence: [1, 2] }] },
    });
    const pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    const client = createClient({
      baseURL: service.simulator.url,
      apiKey: service.simulator.apiKey,
      pollIntervalMs: 20,
      retryBaseDelayMs: 5,
      retryMaxBackoffMs: 20,
      honoursIdempotencyKeys: honours,
    });
    const result = await runPipeline(
      pipeline,
      service.options({ client, cache: false, runDir: join(service.root, "run") }),
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(stats.faultsInjected.drop).toBeGreaterThanOrEqual(2);
    expect(stats.videoJobs.created).toBe(3);
    const facts = submittedFacts(result.runDir);
    expect(new Set(facts.map((f) => f.jobId)).size).toBe(3);
    expect(facts.filter((f) => f.adopted === adopted)).toHaveLength(2);
  });
});
