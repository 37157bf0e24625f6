// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ }}` are pipeline expressions here
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ProviderProfile, videoCatalogFromProfile } from "@reelsmith/core/profile";
import type { RunEvent } from "@reelsmith/runner";
import { BudgetEstimateError } from "@reelsmith/runner/errors";
import type { JournalRecord } from "@reelsmith/runner/runs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listLearntPrices } from "../src/admin-entry.js";
import { decideRun, followRun, submitRun } from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { type Scenario, startScenario, waitFor } from "./helpers/scenario.js";

/** What the provider charges (the simulator serves this profile): 25 and 20 credits a clip. */
const provider: ProviderProfile = {
  video_models: {
    "studio-flat": { seconds: { min: 1, max: 8 }, sizes: ["640x360"], price: { per_clip: 25 } },
    "studio-quiet": { seconds: { min: 1, max: 8 }, sizes: ["640x360"], price: { per_clip: 20 } },
  },
  chat_models: { "writer-1": { json: true } },
};
/** The catalog the run is given: studio-quiet's price is not in it. */
const catalog = videoCatalogFromProfile({
  video_models: {
    "studio-flat": { seconds: { min: 1, max: 8 }, sizes: ["640x360"], price: { per_clip: 25 } },
    "studio-quiet": { seconds: { min: 1, max: 8 }, sizes: ["640x360"] },
  },
});

/** A chat writes four scenes (a fan-out sized at run time), then four clips at once. */
const fourClips = (model: string, word: string, options: { bounded?: boolean } = {}) => ({
  name: `budget-${model}`,
  max_credits: 60,
  steps: [
    {
      id: "storyboard",
      chat: {
        model: "writer-1",
        prompt: `Four scenes about ${word}`,
        schema: {
          type: "object",
          required: ["scenes"],
          properties: {
            scenes:
              options.bounded === false
                ? { type: "array", minItems: 1, items: { type: "string" } }
                : { type: "array", minItems: 4, maxItems: 4, items: { type: "string" } },
          },
        },
      },
    },
    {
      id: "clips",
      for_each: "${{ steps.storyboard.outputs.json.scenes }}",
      max_parallel: 4,
      video: {
        model,
        seconds: 1,
        size: "640x360",
        prompt: `${word} \${{ index }}: \${{ item }}`,
      },
    },
  ],
});

/** Every request the simulator answered, whatever its route and status. */
function requestCount(scenario: Scenario): number {
  return Object.values(scenario.simulator.stats().requests)
    .flatMap((byStatus) => Object.values(byStatus))
    .reduce((sum, count) => sum + count, 0);
}

describe("the budget prices jobs from the run's catalog", () => {
  let database: TestDatabase;
  let scenario: Scenario;
  beforeAll(async () => {
    database = await startTestDatabase();
    // Two worker processes: a price is learnt across workers, not inside one.
    scenario = await startScenario(database.url, 2, { timeScale: 0.05, profile: provider });
  });
  afterAll(async () => {
    await scenario?.close();
    await database?.stop();
  });

  const reservations = async (runId: string) =>
    (
      await scenario.coordinator.pool.query<{ estimate: string; credits: string; state: string }>(
        "SELECT estimate, credits, state FROM reelsmith.reservations WHERE run_id = $1 ORDER BY created_at",
        [runId],
      )
    ).rows;

  it("reserves a profile-priced model's price: 25 credits a clip in 60 sends exactly 2 of 4 clips when a part is allowed", async () => {
    const { coordinator, simulator } = scenario;
    const before = simulator.stats();
    const { runId } = await submitRun(coordinator, {
      pipeline: fourClips("studio-flat", "lighthouse", { bounded: false }),
      allowPartial: true,
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
      catalogs: { video_models: catalog },
      slots: { video: 4 },
      cache: false,
    });
    const events: RunEvent[] = [];
    const result = await followRun(coordinator, runId, { onEvent: (event) => events.push(event) });
    expect(result.status).toBe("budget_reached");
    expect(result.error?.code).toBe("budget_reached");
    // Followers see the estimate: 25 a clip, how many known only once the chat has answered.
    const estimate = events.find((event) => event.type === "run.estimate");
    expect(estimate).toMatchObject({
      maxCredits: 60,
      estimate: {
        credits: 25,
        complete: false,
        steps: { clips: { perUnit: 25, unitsAtLeast: 1 } },
      },
    });
    const after = simulator.stats();
    expect(after.videoJobs.created - before.videoJobs.created).toBe(2);
    expect(result.totals.credits).toBe(50);
    expect(after.creditsCharged - before.creditsCharged).toBe(50);
    // Each job reserved the catalog's 25 (the old pixel-seconds formula would have said 3).
    const rows = await reservations(runId);
    const spent = rows.filter((row) => row.state === "spent");
    expect(spent.map((row) => [Number(row.estimate), Number(row.credits)])).toEqual([
      [25, 25],
      [25, 25],
    ]);
    expect(rows.filter((row) => row.state === "refused").length).toBeGreaterThan(0);
  });

  it("a budget that cannot pay for a whole fan-out stops the run before its first clip, as a local run does", async () => {
    const { coordinator, simulator } = scenario;
    const before = simulator.stats();
    const { runId } = await submitRun(coordinator, {
      pipeline: fourClips("studio-flat", "beacon", { bounded: false }),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
      catalogs: { video_models: catalog },
      slots: { video: 4 },
      cache: false,
    });
    const events: RunEvent[] = [];
    const result = await followRun(coordinator, runId, { onEvent: (event) => events.push(event) });
    expect(result.status).toBe("budget_reached");
    expect(result.error?.message).toContain("its 4 items need 100 credits (4 × 25)");
    expect(simulator.stats().videoJobs.created - before.videoJobs.created).toBe(0);
    // The estimate was worked out again once the chat had answered.
    const estimates = events.filter((event) => event.type === "run.estimate");
    expect(estimates.at(-1)).toMatchObject({ estimate: { credits: 100, complete: true } });
    expect(await reservations(runId)).toEqual([]);
  });

  it("learns an unpriced model's price from its first job, sent alone, then keeps within the budget", async () => {
    const { coordinator, simulator } = scenario;
    const before = simulator.stats();
    const { runId } = await submitRun(coordinator, {
      pipeline: fourClips("studio-quiet", "harbour"),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
      catalogs: { video_models: catalog },
      slots: { video: 4 },
      cache: false,
    });
    const result = await followRun(coordinator, runId);
    expect(result.status).toBe("budget_reached");
    // 20 learnt from the first clip; 20 + 20 + 20 fill 60, a fourth would pass it.
    const after = simulator.stats();
    expect(after.videoJobs.created - before.videoJobs.created).toBe(3);
    expect(result.totals.credits).toBe(60);
    expect(after.creditsCharged - before.creditsCharged).toBe(60);
    // The run's records in the order they were committed: a submission is journaled after its
    // reservation, a completion before the job's price settles it. Only one clip was
    // submitted before the first completion; the others came after it.
    const journal = await coordinator.store.journalRecords(runId);
    const facts = journal
      .filter((record: JournalRecord) => record.type === "fact" && record.step === "clips")
      .map((record) => String(record.name));
    const firstCompletion = facts.indexOf("video.completed");
    expect(firstCompletion).toBeGreaterThan(0);
    expect(facts.slice(0, firstCompletion).filter((name) => name === "video.submitted")).toEqual([
      "video.submitted",
    ]);
    expect(facts.filter((name) => name === "video.submitted")).toHaveLength(3);
    // The first reserved nothing (its price was unknown); the ones after it the learnt 20.
    const spent = (await reservations(runId)).filter((row) => row.state === "spent");
    expect(spent.map((row) => Number(row.estimate)).sort()).toEqual([0, 20, 20]);
    // Every worker and later run finds the price in the database.
    const learnt = await listLearntPrices(coordinator.pool);
    expect(
      learnt.map(({ model, size, seconds, credits }) => ({ model, size, seconds, credits })),
    ).toEqual([{ model: "studio-quiet", size: "640x360", seconds: "1", credits: 20 }]);
  });

  it("refuses a run whose certain cost is over max_credits at submission: no request, no run row", async () => {
    const { coordinator, simulator } = scenario;
    const sent = requestCount(scenario);
    const runs = (await coordinator.store.listRuns()).length;
    const refusal = await submitRun(coordinator, {
      pipeline: {
        name: "too-dear",
        max_credits: 60,
        steps: [
          {
            id: "clips",
            for_each: ["dawn", "noon", "dusk"],
            video: { model: "studio-flat", seconds: 1, size: "640x360", prompt: "${{ item }}" },
          },
        ],
      },
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
      catalogs: { video_models: catalog },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(BudgetEstimateError.isInstance(refusal)).toBe(true);
    expect(refusal).toMatchObject({
      code: "budget_exceeded_by_estimate",
      maxCredits: 60,
      estimate: { credits: 75, complete: true },
    });
    expect((refusal as Error).message).toContain("clips: 3 × 25 = 75");
    expect(requestCount(scenario)).toBe(sent);
    expect(await coordinator.store.listRuns()).toHaveLength(runs);
  });

  it("refuses a run over what the account's budget has left, and says it is the account's", async () => {
    const { coordinator, simulator } = scenario;
    const sent = requestCount(scenario);
    const runs = (await coordinator.store.listRuns()).length;
    const account = "budgeted-team";
    const refusal = await submitRun(coordinator, {
      pipeline: {
        name: "over-the-account",
        steps: [
          {
            id: "clip",
            video: { model: "studio-flat", seconds: 1, size: "640x360", prompt: "a quay" },
          },
        ],
      },
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      account,
      budget: 20,
      artifacts: scenario.artifacts,
      catalogs: { video_models: catalog },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ code: "budget_exceeded_by_estimate", maxCredits: 20 });
    expect((refusal as Error).message).toContain("at least 25 credits");
    expect((refusal as Error).message).toContain("service account's budget has left");
    expect(requestCount(scenario)).toBe(sent);
    expect(await coordinator.store.listRuns()).toHaveLength(runs);
  });

  it("plays the attempt after a gate with the budget the run was submitted with, not the pipeline's", async () => {
    const { coordinator, simulator } = scenario;
    const before = simulator.stats();
    const [storyboard, clips] = fourClips("studio-flat", "lantern", { bounded: false }).steps;
    const { runId } = await submitRun(coordinator, {
      // max_credits 60 in the file; the run is submitted with 25: one clip.
      pipeline: {
        ...fourClips("studio-flat", "lantern"),
        steps: [
          storyboard,
          { id: "review", approve: { message: "Approve the scenes before the clips." } },
          { ...clips, needs: ["review"] },
        ],
      },
      maxCredits: 25,
      allowPartial: true,
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
      catalogs: { video_models: catalog },
      slots: { video: 4 },
      cache: false,
    });
    expect((await followRun(coordinator, runId)).status).toBe("waiting");
    await decideRun(coordinator, runId, { approved: true, by: "ana" });
    await waitFor(
      async () => ((await coordinator.store.getRun(runId))?.attempt === 2 ? true : undefined),
      "the run to go on with its next attempt",
    );
    const events: RunEvent[] = [];
    const result = await followRun(coordinator, runId, { onEvent: (event) => events.push(event) });
    expect(result.status).toBe("budget_reached");
    const after = simulator.stats();
    expect(after.videoJobs.created - before.videoJobs.created).toBe(1);
    expect(result.totals.credits).toBe(25);
    // The second attempt's estimate is held to the same 25.
    const estimates = events.filter((event) => event.type === "run.estimate");
    expect(estimates.length).toBeGreaterThan(0);
    for (const estimate of estimates) expect(estimate).toMatchObject({ maxCredits: 25 });
    // Its holder wrote the report at the run's end, without the service's key.
    const report = readFileSync(join(result.runDir, "report.html"), "utf8");
    expect(report).toContain("lantern");
    expect(report).not.toContain(simulator.apiKey);
  });
});
