import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient, type VideoDialect } from "@reelsmith/core";
import { type ProviderProfile, videoCatalogFromProfile } from "@reelsmith/core/profile";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { solidPng } from "./helpers/png.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

/** A provider's model with its own parameters declared, as a profile says. */
const profile: ProviderProfile = {
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

const pipeline = (params: string) => `name: params
steps:
  - id: clip
    video:
      model: veo-3-fast
      prompt: a lighthouse at dusk
      seconds: 1
      size: 640x360
      params: ${params}
`;

async function serviceIn(dialect: VideoDialect) {
  const service = await startTestService({ profile, dialect });
  // The client a profile gives: its dialect and its catalog.
  const client = createClient({
    baseURL: service.simulator.url,
    apiKey: service.simulator.apiKey,
    dialect,
    videoModels,
    pollIntervalMs: 20,
  });
  const dir = join(service.root, "project");
  mkdirSync(join(dir, "frames"), { recursive: true });
  const run = (params: string) => {
    writeFileSync(join(dir, "pipeline.yaml"), pipeline(params));
    return runPipeline(
      join(dir, "pipeline.yaml"),
      service.options({ client, catalogs: { video_models: videoModels } }),
    );
  };
  return { service, dir, run };
}

describe("provider params against a simulator serving a profile (reference dialect)", () => {
  let served: Awaited<ReturnType<typeof serviceIn>>;
  let service: TestService;
  beforeAll(async () => {
    served = await serviceIn("reference");
    service = served.service;
  });
  afterAll(() => service.close());

  it("sends seed and negative_prompt as JSON fields of their own types", async () => {
    const result = await served.run(`{ seed: 7, negative_prompt: "blurry" }`);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const requests = service.simulator.videoRequests();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.contentType).toBe("application/json");
    expect(requests[0]?.fields).toEqual({
      model: "veo-3-fast",
      prompt: "a lighthouse at dusk",
      seconds: "1",
      size: "640x360",
      seed: 7,
      negative_prompt: "blurry",
    });
  });

  it("keys the cache on params: the same seed is served from the cache, another seed is a new job", async () => {
    const before = service.simulator.stats().videoJobs.created;
    const same = await served.run(`{ seed: 7, negative_prompt: "blurry" }`);
    expect(same.status).toBe("succeeded");
    expect(same.totals.cachedSteps).toBe(1);
    expect(service.simulator.stats().videoJobs.created).toBe(before);

    const other = await served.run(`{ seed: 8, negative_prompt: "blurry" }`);
    expect(other.status).toBe("succeeded");
    expect(other.totals.cachedSteps).toBe(0);
    expect(service.simulator.stats().videoJobs.created).toBe(before + 1);
    expect(service.simulator.videoRequests().at(-1)?.fields.seed).toBe(8);
  });

  it("refuses a value the model does not take at run time, before anything is sent", async () => {
    const requests = service.simulator.videoRequests().length;
    // A value known only once the run exists (its id): checked by the unit, not the plan.
    writeFileSync(join(served.dir, "pipeline.yaml"), pipeline(`{ seed: "\${{ run.id }}" }`));
    const result = await runPipeline(
      join(served.dir, "pipeline.yaml"),
      service.options({ catalogs: { video_models: videoModels } }),
    );
    expect(result.status).toBe("failed");
    // Checked by the runner against the run's catalog (this client has none of its own).
    expect(result.error).toMatchObject({
      code: "step_failed",
      message: expect.stringMatching(
        /`params\.seed` must be an integer for veo-3-fast; got "[\w-]+"/,
      ),
    });
    expect(service.simulator.videoRequests()).toHaveLength(requests);
  });

  it("sends an image param as a data URI of the file's bytes, and keys the cache on those bytes", async () => {
    const png = solidPng(32, 18, [200, 40, 40]);
    writeFileSync(join(served.dir, "frames", "end.png"), png);
    const first = await served.run("{ seed: 1, last_frame: frames/end.png }");
    expect(first.status).toBe("succeeded");
    const sent = service.simulator.videoRequests().at(-1)?.fields.last_frame;
    expect(sent).toBe(`data:image/png;base64,${png.toString("base64")}`);

    const created = service.simulator.stats().videoJobs.created;
    expect((await served.run("{ seed: 1, last_frame: frames/end.png }")).totals.cachedSteps).toBe(
      1,
    );
    writeFileSync(join(served.dir, "frames", "end.png"), solidPng(32, 18, [40, 200, 40]));
    const changed = await served.run("{ seed: 1, last_frame: frames/end.png }");
    expect(changed.totals.cachedSteps).toBe(0);
    expect(service.simulator.stats().videoJobs.created).toBe(created + 1);
  });
});

describe("provider params in the openai dialect", () => {
  let served: Awaited<ReturnType<typeof serviceIn>>;
  beforeAll(async () => {
    served = await serviceIn("openai");
  });
  afterAll(() => served.service.close());

  it("sends params as multipart fields and an image param as a file part of the same bytes", async () => {
    const png = solidPng(48, 27, [20, 60, 200]);
    writeFileSync(join(served.dir, "frames", "end.png"), png);
    const result = await served.run(
      `{ seed: 7, negative_prompt: "blurry", last_frame: frames/end.png }`,
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const [request] = served.service.simulator.videoRequests();
    expect(request?.contentType).toBe("multipart/form-data");
    expect(request?.fields).toEqual({
      model: "veo-3-fast",
      prompt: "a lighthouse at dusk",
      seconds: "1",
      size: "640x360",
      seed: "7",
      negative_prompt: "blurry",
    });
    expect(request?.files).toEqual([
      {
        field: "last_frame",
        filename: "end.png",
        contentType: "image/png",
        bytes: png.length,
        sha256: createHash("sha256").update(png).digest("hex"),
      },
    ]);
  });
});
