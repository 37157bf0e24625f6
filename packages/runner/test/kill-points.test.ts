import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import { afterEach, describe, expect, it } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { ledgerOf } from "../src/ledger/ledger.js";
import { runPipeline } from "../src/run-pipeline.js";
import { journaledFacts, startCrashRun, until } from "./helpers/crash-run.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

/** Runs the storyboard fixture in a child process against `baseURL`; kill it with the handle. */
function crashRun(service: TestService, baseURL: string, runDir: string) {
  const pipeline = join(service.root, "storyboard.yaml");
  copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
  return startCrashRun(service, "crash-run.mjs", pipeline, runDir, baseURL);
}

describe("kill -9 at a point of a unit's life, then resume: one job per clip, every figure once", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("while a completed clip downloads: its charge and its clip are counted once", async () => {
    // The first clip's content is held: the run is killed while that download waits.
    service = await startTestService({ timeScale: 0.1, faults: "slow@videos.content:#1:600000" });
    const runDir = join(service.root, "runs", "downloading");
    const run = crashRun(service, service.simulator.url, runDir);
    // Killed once a clip's job completed and was charged, while the service holds its clip.
    await until(() => (service?.simulator.stats().faultsInjected.slow ?? 0) >= 1);
    expect(journaledFacts(runDir, "video.completed").length).toBeGreaterThanOrEqual(1);
    await run.kill();

    const result = await runPipeline(undefined, service.options({ resume: runDir, cache: false }));
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(stats.videoJobs.created).toBe(3);
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    // Every figure a user reads comes from this ledger: equal to the service's charges.
    expect(ledger.total.credits).toBe(stats.creditsCharged);
    expect(ledger.total.made.videos).toBe(3);
    expect(ledger.total.jobsSubmitted).toBe(3);
    expect(result.totals.credits).toBe(stats.creditsCharged);
    expect(result.totals.made.videos).toBe(3);
  });

  it("while a submission's answer is held by a service that ignores Idempotency-Key: the job is adopted by listing, never made twice", async () => {
    // The service makes the first job and holds its answer: the run is killed meanwhile.
    service = await startTestService({
      timeScale: 0.1,
      faults: "stall@videos.create:#1:600000",
      idempotencyKeys: false,
    });
    const baseURL = service.simulator.url;
    const runDir = join(service.root, "runs", "submitting");
    const run = crashRun(service, baseURL, runDir);
    // The intent is durable before the request leaves; the job exists at the service.
    await until(
      () =>
        (service?.simulator.stats().videoJobs.created ?? 0) >= 1 &&
        journaledFacts(runDir, "video.intent").length >= 1,
    );
    await run.kill();
    const before = service.simulator.stats().videoJobs.created;

    const client = createClient({
      baseURL,
      apiKey: service.simulator.apiKey,
      pollIntervalMs: 20,
      retryBaseDelayMs: 5,
      maxRetries: 4,
    });
    const result = await runPipeline(
      undefined,
      service.options({ resume: runDir, cache: false, client }),
    );
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(before).toBeGreaterThanOrEqual(1);
    expect(stats.videoJobs.created).toBe(3);
    const submitted = journaledFacts(runDir, "video.submitted");
    expect(submitted.some((fact) => (fact.data as { adopted?: string }).adopted === "list")).toBe(
      true,
    );
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    expect(ledger.total.credits).toBe(stats.creditsCharged);
    expect(ledger.total.made.videos).toBe(3);
  });
});
