import { ApiError, createFalClient, ValidationError } from "@fal-ai/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { falProfile, klingEndpoint } from "./fal-fixture.js";

/** fal's official client, unchanged but for its base URL: its requests go to the simulator. */
function falClient(simulator: Simulator, credentials = simulator.apiKey) {
  return createFalClient({
    credentials,
    requestMiddleware: async (request) => ({
      ...request,
      url: request.url.replace("https://queue.fal.run", simulator.url),
    }),
  });
}

async function completed(fal: ReturnType<typeof falClient>, requestId: string) {
  for (;;) {
    const status = await fal.queue.status(klingEndpoint, { requestId });
    if (status.status === "COMPLETED") return status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("@fal-ai/client against serve --dialect fal", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({ profile: falProfile(), timeScale: 0.01 });
  });
  afterAll(async () => {
    await simulator.close();
  });

  it("serves the fal dialect the profile names", () => {
    expect(simulator.dialect).toBe("fal");
  });

  it("queue.submit, status and result: a clip whose URL serves an MP4, charged at its price", async () => {
    const fal = falClient(simulator);
    const before = simulator.stats().creditsCharged;
    const queued = await fal.queue.submit(klingEndpoint, {
      input: { prompt: "A lighthouse at dusk", duration: "5", aspect_ratio: "16:9" },
    });
    expect(queued.status).toBe("IN_QUEUE");
    expect(queued.request_id).toMatch(/\S/);
    expect(queued.status_url).toBe(
      `${simulator.url}/fal-ai/kling-video/requests/${queued.request_id}/status`,
    );
    const status = await completed(fal, queued.request_id);
    expect(status).toMatchObject({ status: "COMPLETED", request_id: queued.request_id });
    const result = await fal.queue.result(klingEndpoint, { requestId: queued.request_id });
    expect(result.requestId).toBe(queued.request_id);
    const video = (result.data as { video: { url: string; content_type: string } }).video;
    expect(video.content_type).toBe("video/mp4");
    const clip = await fetch(video.url);
    expect(clip.status).toBe(200);
    expect(clip.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await clip.arrayBuffer());
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(simulator.stats().creditsCharged - before).toBe(35);
    expect(simulator.videoRequests().at(-1)?.fields).toEqual({
      prompt: "A lighthouse at dusk",
      duration: "5",
      aspect_ratio: "16:9",
    });
  });

  it("subscribe: queue updates up to COMPLETED, then the result", async () => {
    const fal = falClient(simulator);
    const seen: string[] = [];
    const result = await fal.subscribe(klingEndpoint, {
      input: { prompt: "A fox in the snow", duration: "10", aspect_ratio: "9:16" },
      pollInterval: 10,
      onQueueUpdate: (update) => seen.push(update.status),
    });
    expect(seen.at(-1)).toBe("COMPLETED");
    expect((result.data as { video: { url: string } }).video.url).toContain(result.requestId);
  });

  it("refuses a duration the model does not take with a 422 naming the field, and charges nothing", async () => {
    const fal = falClient(simulator);
    const before = simulator.stats();
    const error = await fal.queue
      .submit(klingEndpoint, { input: { prompt: "A storm", duration: "7" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(422);
    expect((error as ValidationError).fieldErrors[0]?.loc).toEqual(["body", "duration"]);
    expect(simulator.stats().videoJobs.created).toBe(before.videoJobs.created);
    expect(simulator.stats().creditsCharged).toBe(before.creditsCharged);
  });

  it("refuses a wrong key with a 401 in fal's { detail } form", async () => {
    const fal = falClient(simulator, "not-the-key");
    const error = await fal.queue
      .submit(klingEndpoint, { input: { prompt: "A storm", duration: "5" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError<unknown>).status).toBe(401);
    expect((error as ApiError<{ detail: string }>).body.detail).toMatch(/API key/);
  });

  it("a failed request ends COMPLETED with its error, and its result is refused", async () => {
    const fal = falClient(simulator);
    const queued = await fal.queue.submit(klingEndpoint, {
      input: { prompt: "A storm #fail", duration: "5" },
    });
    const status = (await completed(fal, queued.request_id)) as unknown as Record<string, unknown>;
    expect(status.error).toMatch(/#fail/);
    expect(status.error_type).toBe("video_generation_failed");
    const error = await fal.queue
      .result(klingEndpoint, { requestId: queued.request_id })
      .catch((caught: unknown) => caught);
    expect((error as ApiError<unknown>).status).toBe(422);
  });
});

describe("@fal-ai/client cancel against serve --dialect fal", () => {
  it("cancels a queued request: it ends with request_cancelled and is not charged", async () => {
    // Real time: the 5 s clip is still queued when the cancel arrives.
    const simulator = await startSimulator({ profile: falProfile(), timeScale: 1 });
    try {
      const fal = falClient(simulator);
      const queued = await fal.queue.submit(klingEndpoint, {
        input: { prompt: "A slow sunrise", duration: "5" },
      });
      await fal.queue.cancel(klingEndpoint, { requestId: queued.request_id });
      const status = (await fal.queue.status(klingEndpoint, {
        requestId: queued.request_id,
      })) as unknown as Record<string, unknown>;
      expect(status).toMatchObject({ status: "COMPLETED", error_type: "request_cancelled" });
      expect(simulator.stats().creditsCharged).toBe(0);
    } finally {
      await simulator.close();
    }
  });
});
