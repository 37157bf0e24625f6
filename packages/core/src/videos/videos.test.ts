import { afterEach, describe, expect, it } from "vitest";
import {
  freePort,
  pause,
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIUserAbortError,
  InvalidRequestError,
  VideoJobFailedError,
  VideoJobTimeoutError,
} from "../errors/index.js";
import type { Logger } from "../http/transport-config.js";
import type { VideoJob } from "./types.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Parameters<typeof startTestServer>[0], port?: number) {
  const server = await startTestServer(handler, port);
  servers.push(server);
  return server;
}

const job = (status: string, extra: Record<string, unknown> = {}) => ({
  id: "video_1",
  object: "video",
  status,
  created: 1,
  model: "sora-2",
  prompt: "a fox",
  ...extra,
});
const fast = { retryBaseDelayMs: 1, retryMaxBackoffMs: 4 };
const params = { model: "sora-2", prompt: "a fox", seconds: 4, size: "1280x720" };

describe("videos.create", () => {
  it("sends seconds as a string with an Idempotency-Key (random or given)", async () => {
    const server = await serve((_request, response) => sendJSON(response, 200, job("queued")));
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    const created = await client.videos.create(params);
    expect(created.status).toBe("pending");
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ ...params, seconds: "4" });
    expect(server.requests[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    await client.videos.create(params, { idempotencyKey: "my-key" });
    expect(server.requests[1]?.headers["idempotency-key"]).toBe("my-key");
    expect(server.requests[1]?.headers["idempotency-key"]).not.toBe(
      server.requests[0]?.headers["idempotency-key"],
    );
  });

  it("checks the model limits of its catalog before sending, and none without one", async () => {
    const server = await serve((_request, response) => sendJSON(response, 200, job("pending")));
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      videoModels: [{ id: "sora-2", seconds: [4, 8], sizes: ["1280x720", "720x1280"] }],
    });
    const error = await client.videos
      .create({ ...params, seconds: 12 })
      .catch((caught: unknown) => caught);
    expect(InvalidRequestError.isInstance(error)).toBe(true);
    expect((error as InvalidRequestError).field).toBe("seconds");
    await expect(client.videos.create({ ...params, size: "640x480" })).rejects.toMatchObject({
      field: "size",
    });
    expect(server.requests).toHaveLength(0);
    const unchecked = createClient({ baseURL: server.url, apiKey: testKey });
    await unchecked.videos.create({ ...params, model: "any-model", seconds: 12 });
    expect(server.requests).toHaveLength(1);
  });

  it("retries an HTTP error status with the same Idempotency-Key", async () => {
    const server = await serve((_request, response, _recorded, index) =>
      index === 0
        ? sendJSON(response, 503, { error: { message: "busy" } })
        : sendJSON(response, 200, job("pending")),
    );
    const client = createClient({ baseURL: server.url, apiKey: testKey, ...fast });
    await client.videos.create(params);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers["idempotency-key"]).toBe(
      server.requests[0]?.headers["idempotency-key"],
    );
  });

  it("does not retry when the connection drops after the request was written", async () => {
    const server = await serve((request) => {
      request.socket.destroy();
    });
    const client = createClient({ baseURL: server.url, apiKey: testKey, ...fast });
    const error = await client.videos
      .create(params, { idempotencyKey: "key-1" })
      .catch((caught: unknown) => caught);
    expect(AmbiguousSubmissionError.isInstance(error)).toBe(true);
    expect((error as AmbiguousSubmissionError).idempotencyKey).toBe("key-1");
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry when the response times out after the request was written", async () => {
    const server = await serve(() => {});
    const attempts: string[] = [];
    const logger: Logger = { debug: (message) => attempts.push(message) };
    // Long enough for the request to be written first even on a loaded machine.
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      timeoutMs: 1_000,
      logger,
      ...fast,
    });
    const outcome = client.videos.create(params).catch((caught: unknown) => caught);
    await server.waitForRequests(1);
    expect(AmbiguousSubmissionError.isInstance(await outcome)).toBe(true);
    // Counted on the client's side: one attempt, no retry.
    expect(attempts.filter((message) => message === "request")).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a refused connection (nothing was sent) and succeeds once the server is up", async () => {
    const port = await freePort();
    let started: Promise<TestServer> | undefined;
    const logger: Logger = {
      warn: (message) => {
        if (message === "retrying request" && !started) {
          started = serve((_request, response) => sendJSON(response, 200, job("pending")), port);
        }
      },
    };
    const client = createClient({
      baseURL: `http://127.0.0.1:${port}`,
      apiKey: testKey,
      logger,
      retryBaseDelayMs: 100,
      maxRetries: 3,
    });
    const created = await client.videos.create(params);
    expect(created.id).toBe("video_1");
    const server = await started!;
    expect(server.requests).toHaveLength(1);
  });

  it("reports APIConnectionError (not ambiguous) when the server stays down", async () => {
    const port = await freePort();
    const client = createClient({ baseURL: `http://127.0.0.1:${port}`, apiKey: testKey, ...fast });
    const error = await client.videos.create(params).catch((caught: unknown) => caught);
    expect(APIConnectionError.isInstance(error)).toBe(true);
    expect(AmbiguousSubmissionError.isInstance(error)).toBe(false);
  });
});

describe("videos.retrieve / waitFor", () => {
  it("normalises statuses and keeps unknown fields", async () => {
    const statuses = [
      "queued",
      "in_progress",
      "running",
      "succeeded",
      "error",
      "cancelled",
      "weird",
    ];
    const server = await serve((_request, response, _recorded, index) =>
      sendJSON(response, 200, job(statuses[index]!, { extra_field: index })),
    );
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    const seen: VideoJob[] = [];
    for (let index = 0; index < statuses.length; index++)
      seen.push(await client.videos.retrieve("video_1"));
    expect(seen.map((item) => item.status)).toEqual([
      "pending",
      "processing",
      "processing",
      "completed",
      "failed",
      "failed",
      "processing",
    ]);
    expect(seen[6]?.raw_status).toBe("weird");
    expect(seen[0]?.extra_field).toBe(0);
    expect(server.requests[0]?.url).toBe("/v1/videos/video_1");
  });

  it("polls until completed, honouring the openai-poll-after-ms hint", async () => {
    const sequence = ["pending", "processing", "processing", "completed"];
    const server = await serve((_request, response, _recorded, index) =>
      sendJSON(
        response,
        200,
        job(
          sequence[Math.min(index, 3)]!,
          index >= 3
            ? { video_url: "http://x/v.mp4", duration: 4, usage: { total_credits: 8 } }
            : {},
        ),
        { "openai-poll-after-ms": "1" },
      ),
    );
    // With a 10-minute interval this test could only finish by following the server's hint.
    const client = createClient({ baseURL: server.url, apiKey: testKey, pollIntervalMs: 600_000 });
    const updates: [string, number][] = [];
    const done = await client.videos.waitFor("video_1", {
      onUpdate: (update, info) => updates.push([update.status, info.polls]),
    });
    expect(done.status).toBe("completed");
    expect(done.usage?.total_credits).toBe(8);
    expect(updates).toEqual([
      ["pending", 1],
      ["processing", 2],
      ["processing", 3],
      ["completed", 4],
    ]);
  });

  it("throws VideoJobFailedError carrying the job's error", async () => {
    const server = await serve((_request, response) =>
      sendJSON(
        response,
        200,
        job("failed", { error: { code: "content_policy", message: "refused" } }),
      ),
    );
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    const error = await client.videos.waitFor("video_1").catch((caught: unknown) => caught);
    expect(VideoJobFailedError.isInstance(error)).toBe(true);
    expect((error as VideoJobFailedError).jobError).toEqual({
      code: "content_policy",
      message: "refused",
    });
    expect((error as VideoJobFailedError).job.id).toBe("video_1");
    expect((error as VideoJobFailedError).message).toContain("refused (content_policy)");
  });

  it("gives up with VideoJobTimeoutError, and stops on abort", async () => {
    const server = await serve((_request, response) => sendJSON(response, 200, job("processing")));
    const client = createClient({ baseURL: server.url, apiKey: testKey, pollIntervalMs: 10 });
    const error = await client.videos
      .waitFor("video_1", { timeoutMs: 60 })
      .catch((caught: unknown) => caught);
    expect(VideoJobTimeoutError.isInstance(error)).toBe(true);
    expect((error as VideoJobTimeoutError).jobId).toBe("video_1");
    const controller = new AbortController();
    const slow = createClient({ baseURL: server.url, apiKey: testKey, pollIntervalMs: 600_000 });
    const pending = slow.videos.waitFor("video_1", { signal: controller.signal });
    await pause(30);
    const before = server.requests.length;
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.requests.length).toBe(before);
  });

  it("createAndWait submits once and polls to completion", async () => {
    const server = await serve((request, response) =>
      request.method === "POST"
        ? sendJSON(response, 200, job("pending"))
        : sendJSON(response, 200, job("completed")),
    );
    const client = createClient({ baseURL: server.url, apiKey: testKey, pollIntervalMs: 5 });
    const done = await client.videos.createAndWait(params);
    expect(done.status).toBe("completed");
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      "POST /v1/videos",
      "GET /v1/videos/video_1",
    ]);
  });
});
