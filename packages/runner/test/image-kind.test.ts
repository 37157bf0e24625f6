import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import { imageModels } from "@reelsmith/simulator/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { BudgetExceededError } from "../src/errors/budget-exceeded-error.js";
import { createBudget } from "../src/executor/budget.js";
import { readJournal } from "../src/journal/journal.js";
import { ledgerOf } from "../src/ledger/ledger.js";
import { loadPipeline } from "../src/pipeline/validate-pipeline.js";
import { planPipeline } from "../src/plan/plan-pipeline.js";
import { runPipeline } from "../src/run-pipeline.js";
import { imageKind } from "../src/steps/image/index.js";
import { journaledFacts, startCrashRun, until } from "./helpers/crash-run.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const catalogs = { image_models: imageModels };
const pipelineFile = join(import.meta.dirname, "fixtures", "cast.yaml");

/** Width and height from a PNG's IHDR chunk, after checking its signature. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("image kind: characters, then keyframes drawn with them as references", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("makes PNGs of the asked size, counts what the service charged, and a rerun is served from the cache", async () => {
    service = await startTestService();
    const first = await runPipeline(pipelineFile, service.options({ catalogs }));
    expect(first.status).toBe("succeeded");
    const characters = first.steps.characters?.outputs as { file: string; files: string[] };
    expect(characters.files).toHaveLength(2);
    expect(characters.file).toBe(characters.files[0]);
    const keyframes = first.steps.keyframes?.outputs as { file: string; files: string[] }[];
    expect(keyframes.map((unit) => unit.file)).toEqual([
      join(first.runDir, "keyframes", "scene-0.png"),
      join(first.runDir, "keyframes", "scene-1.png"),
    ]);
    for (const file of [...characters.files, ...keyframes.map((unit) => unit.file)]) {
      expect(pngSize(file)).toEqual({ width: 256, height: 256 });
    }
    const stats = service.simulator.stats();
    // One generation of 2, one edit per scene with both characters as references.
    expect(stats.images).toMatchObject({ requests: 3, made: 4, edits: 2 });
    expect(stats.creditsByEndpoint.images).toBe(4 * 4);
    const ledger = ledgerOf(readJournal(join(first.runDir, "journal.jsonl")));
    expect(ledger.total.credits).toBe(stats.creditsCharged);
    expect(first.totals.credits).toBe(stats.creditsCharged);
    // Priced before anything was sent: the model's price × n, for every unit.
    expect(first.totals.estimatedCredits).toBe(16);
    // Each request's intent was journaled before it was sent.
    expect(journaledFacts(first.runDir, "image.intent").length).toBeGreaterThanOrEqual(3);

    const again = await runPipeline(pipelineFile, service.options({ catalogs }));
    expect(again.status).toBe("succeeded");
    expect(service.simulator.stats().images.requests).toBe(3);
    expect(again.totals.credits).toBe(0);
    expect(again.totals.savedCredits).toBe(16);
    const cached = again.steps.characters?.outputs as { files: string[] };
    expect(cached.files.every((file) => file.startsWith(again.runDir))).toBe(true);
    for (const file of cached.files) expect(pngSize(file)).toEqual({ width: 256, height: 256 });
    expect(
      readFileSync((again.steps.keyframes!.outputs as { file: string }[])[1]!.file).equals(
        readFileSync(keyframes[1]!.file),
      ),
    ).toBe(true);
  });

  it("plans each request's images and prices them from the catalog before anything is sent", async () => {
    const plan = planPipeline(await loadPipeline(pipelineFile, { catalogs }), { catalogs });
    // Two images in one request, then one per scene.
    expect(plan.limits.requests).toEqual({ images: 4 });
    expect(plan.limits.estimate.steps.characters).toMatchObject({ perUnit: 8, credits: 8 });
    expect(plan.limits.estimate.steps.keyframes).toMatchObject({
      perUnit: 4,
      units: 2,
      credits: 8,
    });
    expect(plan.limits.estimate).toMatchObject({ credits: 16, complete: true });
    // Without a catalog the images are counted, their price is unknown.
    const unpriced = planPipeline(await loadPipeline(pipelineFile));
    expect(unpriced.limits.estimate.complete).toBe(false);
  });

  it("a reservation priced by its kind (credits) holds its place in the budget before any video catalog", async () => {
    const budget = createBudget(10, () => undefined);
    await budget.assertCanSubmit({ key: "a", request: { model: "reel-image-1" }, credits: 8 });
    // 8 reserved of 10: a second request of 8 does not fit, whatever its model.
    await expect(
      budget.assertCanSubmit({ key: "b", request: { model: "reel-image-1" }, credits: 8 }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
    await budget.spend(8, { key: "a" });
    expect(budget.spent).toBe(8);
    expect(budget.left?.()).toBe(2);
  });

  it("checks a unit's evaluated request as its run will (a retake's, before it is journaled)", async () => {
    const pipelineDir = import.meta.dirname;
    const check = (spec: Record<string, unknown>) =>
      imageKind.checkRequest?.(spec as never, { pipelineDir, catalogs });
    await expect(
      check({ model: "reel-image-1", prompt: "a fox", size: "256x256" }),
    ).resolves.toBeUndefined();
    await expect(
      check({ model: "reel-image-1", prompt: "a fox", size: "640x480" }),
    ).rejects.toThrow(/does not draw 640x480/);
    await expect(
      check({ model: "reel-image-1", prompt: "a fox", references: ["fixtures/cast.yaml"] }),
    ).rejects.toThrow(/cannot be sent/);
    await expect(
      check({
        model: "reel-image-1",
        prompt: "a fox",
        references: [
          "https://cdn.example/a.png",
          "https://cdn.example/b.png",
          "https://cdn.example/c.png",
          "https://cdn.example/d.png",
          "https://cdn.example/e.png",
        ],
      }),
    ).rejects.toThrow(/at most 4 reference images; 5 are given/);
  });

  it("refuses, before anything is paid, a request the model cannot take that only the run knows", async () => {
    service = await startTestService();
    const result = await runPipeline(
      {
        name: "late-size",
        inputs: { size: { type: "string", default: "640x480" } },
        steps: [
          {
            id: "still",
            image: { model: "reel-image-1", prompt: "a fox", size: "${{ inputs.size }}" },
          },
        ],
      },
      service.options({ catalogs }),
    ).catch((error: Error) => error);
    expect(String((result as Error).message ?? JSON.stringify(result))).toMatch(/640x480/);
    expect(service.simulator.stats().images.requests).toBe(0);
  });

  it("kill -9 while an answer is in flight, then resume: the images are charged once", async () => {
    // The first image request is answered (and charged), then its answer stalls.
    service = await startTestService({ faults: "stall@images:#1:600000" });
    const pipeline = join(service.root, "cast.yaml");
    copyFileSync(pipelineFile, pipeline);
    const runDir = join(service.root, "runs", "in-flight");
    const child = startCrashRun(service, "crash-image-run.mjs", pipeline, runDir);
    // Charged by the service, its answer held: the run is killed meanwhile.
    await until(
      () =>
        (service?.simulator.stats().images.requests ?? 0) >= 1 &&
        journaledFacts(runDir, "image.intent").length >= 1,
    );
    expect(journaledFacts(runDir, "image.completed")).toHaveLength(0);
    expect(service.simulator.stats().images.requests).toBe(1);
    await child.kill();

    const client = createClient({
      baseURL: service.simulator.url,
      apiKey: service.simulator.apiKey,
      honoursIdempotencyKeys: true,
    });
    const resumed = await runPipeline(
      undefined,
      service.options({ resume: runDir, cache: false, client, catalogs }),
    );
    expect(resumed.status).toBe("succeeded");
    const stats = service.simulator.stats();
    // The lost answer was asked for again with its key: served again, not made again.
    expect(stats.images).toMatchObject({ requests: 3, made: 4 });
    expect(stats.creditsCharged).toBe(16);
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    expect(ledger.total.credits).toBe(stats.creditsCharged);
    expect(resumed.totals.credits).toBe(stats.creditsCharged);
    for (const file of (resumed.steps.characters!.outputs as { files: string[] }).files) {
      expect(pngSize(file)).toEqual({ width: 256, height: 256 });
    }
  });

  it("a lost answer from a service not known to honour keys is not sent again: the item says how to reconcile", async () => {
    service = await startTestService({ faults: "stall@images:#1:600000" });
    const pipeline = join(service.root, "cast.yaml");
    copyFileSync(pipelineFile, pipeline);
    const runDir = join(service.root, "runs", "unsettled");
    const child = startCrashRun(service, "crash-image-run.mjs", pipeline, runDir);
    await until(
      () =>
        (service?.simulator.stats().images.requests ?? 0) >= 1 &&
        journaledFacts(runDir, "image.intent").length >= 1,
    );
    await child.kill();

    // The helper's client does not say the service honours Idempotency-Key.
    const resumed = await runPipeline(
      undefined,
      service.options({ resume: runDir, cache: false, catalogs }),
    );
    expect(resumed.status).toBe("failed");
    expect(JSON.stringify(resumed.error ?? resumed)).toMatch(
      /image_request_unsettled|answer was lost/,
    );
    expect(service.simulator.stats().images.requests).toBe(1);
  });
});
