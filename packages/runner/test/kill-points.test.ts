import { spawn } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import { afterEach, describe, expect, it } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { ledgerOf } from "../src/ledger/ledger.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

/** Journal records of a run directory (none before it exists). */
function records(runDir: string) {
  const file = join(runDir, "journal.jsonl");
  return existsSync(file) ? readJournal(file) : [];
}

function facts(runDir: string, name: string): Record<string, unknown>[] {
  return records(runDir).filter((r) => r.type === "fact" && r.name === name) as Record<
    string,
    unknown
  >[];
}

/** Waits for a state of the run or of the service (never for an amount of time). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Runs the storyboard fixture in a child process against `baseURL`; kill it with the handle. */
function crashRun(service: TestService, baseURL: string, runDir: string) {
  const pipeline = join(service.root, "storyboard.yaml");
  copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
  const child = spawn(
    process.execPath,
    [
      join(import.meta.dirname, "fixtures", "crash-run.mjs"),
      pipeline,
      runDir,
      join(service.root, "cache"),
    ],
    {
      env: {
        ...process.env,
        REELSMITH_BASE_URL: baseURL,
        REELSMITH_API_KEY: service.simulator.apiKey,
      },
      stdio: "ignore",
    },
  );
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
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
    expect(facts(runDir, "video.completed").length).toBeGreaterThanOrEqual(1);
    await run.kill();

    const result = await runPipeline(undefined, service.options({ resume: runDir, cache: false }));
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(stats.videoJobs.created).toBe(3);
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    // Every figure a user reads comes from this ledger: equal to the service's charges.
    expect(ledger.total.credits).toBe(stats.creditsCharged);
    expect(ledger.total.videos).toBe(3);
    expect(ledger.total.jobsSubmitted).toBe(3);
    expect(result.totals.credits).toBe(stats.creditsCharged);
    expect(result.totals.videos).toBe(3);
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
        facts(runDir, "video.intent").length >= 1,
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
    const submitted = facts(runDir, "video.submitted");
    expect(submitted.some((fact) => (fact.data as { adopted?: string }).adopted === "list")).toBe(
      true,
    );
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    expect(ledger.total.credits).toBe(stats.creditsCharged);
    expect(ledger.total.videos).toBe(3);
  });
});
