import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@reelsmith/core";
import {
  AmbiguousSubmissionError,
  InternalServerError,
  InvalidRequestError,
  RequestUnsettledError,
} from "@reelsmith/core/errors";
import { clientOptionsFromProfile, parseProfile } from "@reelsmith/core/profile";
import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { falProfile, klingEndpoint } from "./fal-fixture.js";

const simulators: Simulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((simulator) => simulator.close()));
});

async function serve(options: Parameters<typeof startSimulator>[0] = {}) {
  const simulator = await startSimulator({ profile: falProfile(), timeScale: 0.01, ...options });
  simulators.push(simulator);
  return simulator;
}

/** Core's client set up from the fal profile, its base URL pointed at the simulator. */
function clientFor(simulator: Simulator) {
  return createClient({
    ...clientOptionsFromProfile(parseProfile(falProfile())),
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs: 5,
    retryBaseDelayMs: 1,
  });
}

const submits = (simulator: Simulator) =>
  Object.values(simulator.stats().requests["POST /{endpoint}"] ?? {}).reduce((a, b) => a + b, 0);

describe("@reelsmith/core's fal provider against serve --dialect fal", () => {
  it("submits the model's input, polls fal's states, downloads the clip from its result URL", async () => {
    const simulator = await serve();
    const client = clientFor(simulator);
    const statuses: string[] = [];
    const job = await client.videos.createAndWait(
      { model: klingEndpoint, prompt: "A harbour at dawn", seconds: 5, size: "720x1280" },
      { onUpdate: (update) => statuses.push(update.status) },
    );
    expect(job.id).toMatch(new RegExp(`^${klingEndpoint}/requests/\\S+$`));
    expect(job.status).toBe("completed");
    expect(statuses.at(-1)).toBe("completed");
    expect(job.video_url).toMatch(/\/files\/\S+\/output\.mp4$/);
    expect(simulator.videoRequests()).toEqual([
      {
        contentType: "application/json",
        fields: { prompt: "A harbour at dawn", duration: "5", aspect_ratio: "9:16" },
        files: [],
        status: 200,
      },
    ]);
    const dir = await mkdtemp(path.join(tmpdir(), "reelsmith-fal-"));
    try {
      const saved = await client.videos.downloadContent(job.id, { to: path.join(dir, "a.mp4") });
      const bytes = await readFile(saved.path);
      expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(simulator.stats().creditsCharged).toBe(35);
  });

  it("refuses locally what fal's input cannot carry, before anything is sent", async () => {
    const simulator = await serve();
    const client = clientFor(simulator);
    const error = await client.videos
      .create({ model: "fal-ai", prompt: "A fox", seconds: 5 }, { videoModels: null })
      .catch((caught: unknown) => caught);
    expect(InvalidRequestError.isInstance(error)).toBe(true);
    expect((error as InvalidRequestError).field).toBe("model");
    const sized = await client.videos
      .create(
        { model: klingEndpoint, prompt: "A fox", seconds: 5, size: "1000x777" },
        {
          videoModels: null,
        },
      )
      .catch((caught: unknown) => caught);
    expect((sized as InvalidRequestError).field).toBe("size");
    expect((sized as InvalidRequestError).message).toMatch(/aspect ratio/);
    expect(submits(simulator)).toBe(0);
  });

  it("never resends a submission fal answered with a 500 (the work may be queued)", async () => {
    const simulator = await serve({ faults: "500@videos.create:#1" });
    const client = clientFor(simulator);
    const error = await client.videos
      .create({ model: klingEndpoint, prompt: "A fox", seconds: 5 })
      .catch((caught: unknown) => caught);
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect(submits(simulator)).toBe(1);
  });

  it("resends a submission refused with a 429 (nothing was queued)", async () => {
    const simulator = await serve({ faults: "429@videos.create:#1:0.001" });
    const client = clientFor(simulator);
    const job = await client.videos.create({ model: klingEndpoint, prompt: "A fox", seconds: 5 });
    expect(job.status).toBe("pending");
    expect(submits(simulator)).toBe(2);
    expect(simulator.stats().videoJobs.created).toBe(1);
  });

  it("a submission whose answer was lost cannot be found again: request_unsettled, nothing resent", async () => {
    const simulator = await serve({ faults: "drop@videos.create:#1" });
    const client = clientFor(simulator);
    const params = { model: klingEndpoint, prompt: "A lost fox", seconds: 5 };
    const sinceMs = Date.now();
    const lost = await client.videos.create(params, { idempotencyKey: "key-1" }).catch((e) => e);
    expect(AmbiguousSubmissionError.isInstance(lost)).toBe(true);
    const unsettled = await client.videos
      .resolveSubmission(params, { idempotencyKey: "key-1", sinceMs })
      .catch((caught: unknown) => caught);
    expect(RequestUnsettledError.isInstance(unsettled)).toBe(true);
    expect((unsettled as RequestUnsettledError).code).toBe("request_unsettled");
    expect((unsettled as RequestUnsettledError).message).toContain(
      `https://api.fal.ai/v1/models/requests/by-endpoint?endpoint_id=${encodeURIComponent(klingEndpoint)}`,
    );
    expect((unsettled as RequestUnsettledError).message).toContain('"A lost fox"');
    expect(submits(simulator)).toBe(1);
    expect(simulator.stats().videoJobs.created).toBe(1);
  });

  it("cancels a job through fal's cancel route", async () => {
    const simulator = await serve({ timeScale: 1 });
    const client = clientFor(simulator);
    const job = await client.videos.create({
      model: klingEndpoint,
      prompt: "A slow tide",
      seconds: 5,
    });
    await client.videos.cancel(job.id);
    const after = await client.videos.retrieve(job.id);
    expect(after.status).toBe("failed");
    expect(after.error).toEqual({
      code: "request_cancelled",
      message: "The request was cancelled.",
    });
  });
});
