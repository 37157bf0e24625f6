import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@reelsmith/core";
import {
  AmbiguousSubmissionError,
  AuthenticationError,
  InternalServerError,
  InvalidRequestError,
} from "@reelsmith/core/errors";
import { clientOptionsFromProfile, parseProfile } from "@reelsmith/core/profile";
import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { klingKey, klingModel, klingProfile } from "./kling-fixture.js";

const simulators: Simulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((simulator) => simulator.close()));
});

async function serve(options: Parameters<typeof startSimulator>[0] = {}) {
  const simulator = await startSimulator({
    profile: klingProfile(),
    apiKey: klingKey,
    timeScale: 0.01,
    ...options,
  });
  simulators.push(simulator);
  return simulator;
}

/** Core's client set up from the Kling profile, its base URL pointed at the simulator. */
function clientFor(simulator: Simulator, apiKey = klingKey) {
  return createClient({
    ...clientOptionsFromProfile(parseProfile(klingProfile())),
    baseURL: simulator.url,
    apiKey,
    pollIntervalMs: 5,
    retryBaseDelayMs: 1,
  });
}

const submits = (simulator: Simulator) =>
  Object.values(simulator.stats().requests["POST /v1/videos/{action}"] ?? {}).reduce(
    (a, b) => a + b,
    0,
  );

describe("@reelsmith/core's kling provider against serve --dialect kling", () => {
  it("maps the request onto Kling's body, polls Kling's states, downloads the clip", async () => {
    const simulator = await serve();
    const client = clientFor(simulator);
    const job = await client.videos.createAndWait(
      {
        model: klingModel,
        prompt: "A harbour at dawn",
        seconds: 5,
        size: "720x1280",
        params: { negative_prompt: "blur", mode: "pro" },
      },
      { idempotencyKey: "key-map" },
    );
    expect(job.id).toMatch(/^text2video\/\S+$/);
    expect(job.status).toBe("completed");
    expect(job.video_url).toMatch(/\/files\/\S+\/text2video\.mp4$/);
    expect(simulator.videoRequests()).toEqual([
      {
        contentType: "application/json",
        fields: {
          model_name: klingModel,
          prompt: "A harbour at dawn",
          duration: "5",
          aspect_ratio: "9:16",
          negative_prompt: "blur",
          mode: "pro",
          external_task_id: "key-map",
        },
        files: [],
        status: 200,
      },
    ]);
    const dir = await mkdtemp(path.join(tmpdir(), "reelsmith-kling-"));
    try {
      const saved = await client.videos.downloadContent(job.id, { to: path.join(dir, "a.mp4") });
      expect((await readFile(saved.path)).subarray(4, 8).toString("latin1")).toBe("ftyp");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(simulator.stats().creditsCharged).toBe(35);
  });

  it("sends a reference image to image2video as Kling's `image`", async () => {
    const simulator = await serve();
    const client = clientFor(simulator);
    const job = await client.videos.create(
      {
        model: klingModel,
        prompt: "The keyframe comes alive",
        image_url: "https://cdn.test/k.png",
      },
      { idempotencyKey: "key-image" },
    );
    expect(job.id).toMatch(/^image2video\//);
    expect(simulator.videoRequests()[0]?.fields).toMatchObject({
      image: "https://cdn.test/k.png",
      external_task_id: "key-image",
    });
  });

  it("refuses seconds: 7 and a size of no Kling ratio locally, with nothing sent", async () => {
    const simulator = await serve();
    const client = clientFor(simulator);
    const seven = await client.videos
      .create({ model: klingModel, prompt: "A fox", seconds: 7 }, { videoModels: null })
      .catch((caught: unknown) => caught);
    expect(InvalidRequestError.isInstance(seven)).toBe(true);
    expect((seven as InvalidRequestError).field).toBe("seconds");
    expect((seven as InvalidRequestError).message).toContain("give 5 or 10");
    const sized = await client.videos
      .create({ model: klingModel, prompt: "A fox", size: "1024x768" }, { videoModels: null })
      .catch((caught: unknown) => caught);
    expect((sized as InvalidRequestError).field).toBe("size");
    expect(submits(simulator)).toBe(0);
    expect(simulator.stats().videoJobs.created).toBe(0);
  });

  it("a lost submit answer is settled by the external_task_id: the one task, never a second", async () => {
    const simulator = await serve({ faults: "drop@videos.create:#1" });
    const client = clientFor(simulator);
    const params = { model: klingModel, prompt: "A lost fox", seconds: 5 };
    const sinceMs = Date.now();
    const lost = await client.videos.create(params, { idempotencyKey: "key-lost" }).catch((e) => e);
    expect(AmbiguousSubmissionError.isInstance(lost)).toBe(true);
    const settled = await client.videos.resolveSubmission(params, {
      idempotencyKey: "key-lost",
      sinceMs,
    });
    expect(settled.via).toBe("idempotency-key");
    expect(settled.jobs).toHaveLength(1);
    const [found] = settled.jobs;
    expect(found?.external_task_id).toBe("key-lost");
    const done = await client.videos.waitFor(found?.id ?? "");
    expect(done.status).toBe("completed");
    expect(submits(simulator)).toBe(1);
    expect(simulator.stats().videoJobs.created).toBe(1);
  });

  it("settles a submission that never arrived as no task, so it may be sent", async () => {
    const simulator = await serve();
    const client = clientFor(simulator);
    const settled = await client.videos.resolveSubmission(
      { model: klingModel, prompt: "Never sent", seconds: 5 },
      { idempotencyKey: "key-never", sinceMs: Date.now() },
    );
    expect(settled).toEqual({ via: "idempotency-key", jobs: [] });
  });

  it("resends a submission refused with Kling's rate limit (nothing was made), never one answered 500", async () => {
    const limited = await serve({ faults: "429@videos.create:#1:0.001" });
    const job = await clientFor(limited).videos.create(
      { model: klingModel, prompt: "A fox", seconds: 5 },
      { idempotencyKey: "key-429" },
    );
    expect(job.status).toBe("pending");
    expect(submits(limited)).toBe(2);
    expect(limited.stats().videoJobs.created).toBe(1);
    const failing = await serve({ faults: "500@videos.create:#1" });
    const error = await clientFor(failing)
      .videos.create({ model: klingModel, prompt: "A fox", seconds: 5 })
      .catch((caught: unknown) => caught);
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect((error as InternalServerError).code).toBe("5000");
    expect(submits(failing)).toBe(1);
  });

  it("reads Kling's auth code as an AuthenticationError, not retried", async () => {
    const simulator = await serve();
    const client = clientFor(simulator, "ak-test-0123456789:the-wrong-secret-key");
    const error = await client.videos
      .create({ model: klingModel, prompt: "A fox", seconds: 5 })
      .catch((caught: unknown) => caught);
    expect(AuthenticationError.isInstance(error)).toBe(true);
    expect((error as AuthenticationError).code).toBe("1000");
    expect((error as AuthenticationError).message).toContain("Kling error 1000");
    expect(submits(simulator)).toBe(1);
  });
});
