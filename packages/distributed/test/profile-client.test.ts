import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ProviderProfile, videoCatalogFromProfile } from "@reelsmith/core/profile";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solidPng } from "../../runner/test/helpers/png.js";
import {
  type Coordinator,
  connect,
  followRun,
  startWorker,
  submitRun,
  type Worker,
} from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";

/** A provider that speaks OpenAI's video API, with a model whose parameters are declared. */
const profile: ProviderProfile = {
  service: { dialect: "openai", lists_jobs: true, poll_interval: "50ms" },
  video_models: {
    "veo-3-fast": {
      seconds: { min: 1, max: 8 },
      sizes: ["640x360"],
      image: true,
      params: { seed: "integer", negative_prompt: "string", last_frame: "image" },
    },
  },
  chat_models: { "gpt-4o-mini": { json: true } },
};
const videoModels = videoCatalogFromProfile(profile);

const pipeline = (params: string) => `name: profiled
steps:
  - id: clips
    for_each: [dawn, dusk]
    video:
      model: veo-3-fast
      prompt: a lighthouse at \${{ item }}
      seconds: 1
      size: 640x360
      params: ${params}
`;

describe("a run on many machines keeps its provider profile's client", () => {
  let database: TestDatabase;
  let simulator: Simulator;
  let worker: Worker;
  let coordinator: Coordinator;
  let dir: string;
  beforeAll(async () => {
    database = await startTestDatabase();
    simulator = await startSimulator({ timeScale: 0.02, profile });
    // The worker knows nothing of the profile: only its database and its own key.
    worker = await startWorker({ databaseUrl: database.url, apiKey: simulator.apiKey });
    coordinator = await connect(database.url);
    dir = mkdtempSync(join(tmpdir(), "reelsmith-profiled-"));
    mkdirSync(join(dir, "frames"));
  });
  afterAll(async () => {
    await worker?.stop({ graceMs: 0 });
    await coordinator?.close();
    await simulator?.close();
    await database?.stop();
  });

  it("speaks the openai dialect on the workers: params as multipart fields, an image param as a file part", async () => {
    const png = solidPng(32, 18, [10, 120, 200]);
    writeFileSync(join(dir, "frames", "end.png"), png);
    writeFileSync(
      join(dir, "pipeline.yaml"),
      pipeline(`{ seed: 7, negative_prompt: blurry, last_frame: frames/end.png }`),
    );
    const { runId } = await submitRun(coordinator, {
      pipeline: join(dir, "pipeline.yaml"),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: join(dir, "runs"),
      client: { dialect: "openai", listsJobs: true, pollIntervalMs: 50 },
      catalogs: { video_models: videoModels },
    });
    // What travels with the run: how to build the client, never the key.
    const stored = await coordinator.store.getRun(runId);
    expect(stored?.options.client).toEqual({
      dialect: "openai",
      listsJobs: true,
      pollIntervalMs: 50,
    });
    expect(stored?.options.catalogs?.video_models?.map((model) => model.id)).toEqual([
      "veo-3-fast",
    ]);
    // A run stored by an older version kept its video catalog in a field of its own: it is
    // read as the run's video_models catalog, so the run still resumes with it.
    await coordinator.pool.query(
      "UPDATE reelsmith.runs SET options = (options - 'catalogs') || jsonb_build_object('videoModels', $2::jsonb) WHERE run_id = $1",
      [runId, JSON.stringify(videoModels)],
    );
    const older = await coordinator.store.getRun(runId);
    expect(older?.options.catalogs?.video_models?.map((model) => model.id)).toEqual(["veo-3-fast"]);
    expect(older?.options).not.toHaveProperty("videoModels");
    expect(JSON.stringify(stored)).not.toContain(simulator.apiKey);

    const result = await followRun(coordinator, runId);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const requests = simulator.videoRequests();
    expect(requests).toHaveLength(2);
    const sha256 = createHash("sha256").update(png).digest("hex");
    for (const request of requests) {
      expect(request.status).toBe(200);
      expect(request.contentType).toBe("multipart/form-data");
      expect(request.fields).toMatchObject({ seed: "7", negative_prompt: "blurry" });
      expect(request.files).toEqual([
        {
          field: "last_frame",
          filename: "end.png",
          contentType: "image/png",
          bytes: png.length,
          sha256,
        },
      ]);
    }
    expect(result.steps.clips?.status).toBe("succeeded");
  });

  it("refuses a parameter the model does not declare at submission, before anything is stored or sent", async () => {
    writeFileSync(join(dir, "bad.yaml"), pipeline(`{ seed: 7, motion: high }`));
    const sent = simulator.videoRequests().length;
    const runs = (await coordinator.store.listRuns()).length;
    await expect(
      submitRun(coordinator, {
        pipeline: join(dir, "bad.yaml"),
        baseURL: simulator.url,
        artifacts: join(dir, "runs"),
        client: { dialect: "openai" },
        catalogs: { video_models: videoModels },
      }),
    ).rejects.toMatchObject({
      diagnostics: [
        expect.objectContaining({
          line: 10,
          column: 34,
          code: "video_param_unknown",
          message: expect.stringContaining("`params.motion` is not a parameter of veo-3-fast"),
        }),
      ],
    });
    expect(simulator.videoRequests()).toHaveLength(sent);
    expect(await coordinator.store.listRuns()).toHaveLength(runs);
  });
});
