import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@reelsmith/core";
import {
  AmbiguousSubmissionError,
  InternalServerError,
  InvalidRequestError,
} from "@reelsmith/core/errors";
import { clientOptionsFromProfile, parseProfile } from "@reelsmith/core/profile";
import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { klingModel, replicateProfile } from "./replicate-fixture.js";

const simulators: Simulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((simulator) => simulator.close()));
});

async function serve(options: Parameters<typeof startSimulator>[0] = {}) {
  const simulator = await startSimulator({
    profile: replicateProfile(),
    timeScale: 0.01,
    ...options,
  });
  simulators.push(simulator);
  return simulator;
}

/** Core's client set up from the Replicate profile, its base URL pointed at the simulator. */
function clientFor(simulator: Simulator) {
  return createClient({
    ...clientOptionsFromProfile(parseProfile(replicateProfile())),
    baseURL: `${simulator.url}/v1`,
    apiKey: simulator.apiKey,
    pollIntervalMs: 5,
    retryBaseDelayMs: 1,
  });
}

const route = "POST /v1/models/:owner/:name/predictions";
const submits = (simulator: Simulator) =>
  Object.values(simulator.stats().requests[route] ?? {}).reduce((a, b) => a + b, 0);

/** A 1×1 PNG, as a local file's bytes reach core. */
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

describe("@reelsmith/core's replicate provider against serve --dialect replicate", () => {
  it("maps the request onto the model's input, polls its states, downloads the output URL", async () => {
    const simulator = await serve();
    const client = clientFor(simulator);
    const statuses: string[] = [];
    const job = await client.videos.createAndWait(
      {
        model: klingModel,
        prompt: "A harbour at dawn",
        seconds: 5,
        size: "720x1280",
        image: new Uint8Array(png),
      },
      { onUpdate: (update) => statuses.push(update.status) },
    );
    expect(job.status).toBe("completed");
    expect(statuses.at(-1)).toBe("completed");
    expect(job.model).toBe(klingModel);
    expect(job.video_url).toMatch(/\/files\/\S+\/output\.mp4$/);
    expect(simulator.videoRequests()).toEqual([
      {
        contentType: "application/json",
        fields: {
          prompt: "A harbour at dawn",
          duration: 5,
          aspect_ratio: "9:16",
          start_image: `data:image/png;base64,${png.toString("base64")}`,
        },
        files: [],
        status: 201,
      },
    ]);
    const dir = await mkdtemp(path.join(tmpdir(), "reelsmith-replicate-"));
    try {
      const saved = await client.videos.downloadContent(job.id, { to: path.join(dir, "a.mp4") });
      const bytes = await readFile(saved.path);
      expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(simulator.stats().creditsCharged).toBe(35);
  });

  it("refuses locally what the model's input cannot carry, with 0 requests sent", async () => {
    const simulator = await serve();
    const client = clientFor(simulator);
    const refused = async (params: Parameters<typeof client.videos.create>[0]) => {
      const error = await client.videos
        .create(params, { videoModels: null })
        .catch((caught: unknown) => caught);
      expect(InvalidRequestError.isInstance(error)).toBe(true);
      return error as InvalidRequestError;
    };
    expect((await refused({ model: "kling-v2.1", prompt: "A fox" })).field).toBe("model");
    const sized = await refused({ model: klingModel, prompt: "A fox", size: "1000x777" });
    expect(sized.field).toBe("size");
    expect(sized.message).toMatch(/16:9, 9:16, 1:1/);
    const fixed = await refused({ model: "minimax/video-01", prompt: "A fox", seconds: 10 });
    expect(fixed.message).toMatch(/takes no `duration`/);
    const veo = await refused({ model: "google/veo-3-fast", prompt: "A fox", size: "1280x960" });
    expect(veo.field).toBe("size");
    const twice = await refused({
      model: klingModel,
      prompt: "A fox",
      seconds: 5,
      params: { duration: 10 },
    });
    expect(twice.field).toBe("params.duration");
    expect(simulator.stats().requests).toEqual({});
  });

  it("never resends a submission Replicate answered with a 500 (the prediction may exist)", async () => {
    const simulator = await serve({ faults: "500@videos.create:#1" });
    const client = clientFor(simulator);
    const error = await client.videos
      .create({ model: klingModel, prompt: "A fox", seconds: 5 })
      .catch((caught: unknown) => caught);
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect(submits(simulator)).toBe(1);
  });

  it("resends a submission refused with a 429 (nothing was made)", async () => {
    const simulator = await serve({ faults: "429@videos.create:#1:0.001" });
    const client = clientFor(simulator);
    const job = await client.videos.create({ model: klingModel, prompt: "A fox", seconds: 5 });
    expect(["pending", "processing", "completed"]).toContain(job.status);
    expect(submits(simulator)).toBe(2);
    expect(simulator.stats().videoJobs.created).toBe(1);
  });

  it("a submission whose answer was lost is found again in the prediction list: the one prediction, nothing resent", async () => {
    const simulator = await serve({ faults: "drop@videos.create:#3" });
    const client = clientFor(simulator);
    const params = { model: klingModel, prompt: "A lost fox", seconds: 5, size: "1280x720" };
    // Two predictions of the same model before it, one with the same prompt but another length.
    const others = [
      (await client.videos.create({ ...params, seconds: 10 })).id,
      (await client.videos.create({ ...params, prompt: "Another fox" })).id,
    ];
    const sinceMs = Date.now();
    const lost = await client.videos.create(params, { idempotencyKey: "key-1" }).catch((e) => e);
    expect(AmbiguousSubmissionError.isInstance(lost)).toBe(true);
    for (;;) {
      if (simulator.stats().videoJobs.created >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const settled = await client.videos.resolveSubmission(params, {
      idempotencyKey: "key-1",
      sinceMs,
    });
    expect(settled.via).toBe("list");
    expect(settled.jobs).toHaveLength(1);
    const found = settled.jobs[0];
    expect(others).not.toContain(found?.id);
    const made = await client.videos.retrieve(found?.id ?? "");
    expect(made).toMatchObject({ model: klingModel, prompt: "A lost fox" });
    expect(submits(simulator)).toBe(3);
    expect(simulator.stats().videoJobs.created).toBe(3);
    // Predictions made before the submission's window are not it.
    const later = await client.videos.resolveSubmission(params, {
      idempotencyKey: "key-1",
      sinceMs: Date.now() + 3_600_000,
    });
    expect(later.jobs).toEqual([]);
  });

  it("cancels a prediction through Replicate's cancel route", async () => {
    const simulator = await serve({ timeScale: 1 });
    const client = clientFor(simulator);
    const job = await client.videos.create({
      model: klingModel,
      prompt: "A slow tide",
      seconds: 5,
    });
    await client.videos.cancel(job.id);
    const after = await client.videos.retrieve(job.id);
    expect(after.status).toBe("failed");
    expect(after.error?.code).toBe("canceled");
  });
});
