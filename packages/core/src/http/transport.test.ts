import { afterEach, describe, expect, it } from "vitest";
import {
  freePort,
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import {
  APIConnectionError,
  type APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "../errors/index.js";
import type { Logger } from "./transport-config.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug: (message, fields) =>
      lines.push({ level: "debug", message, ...(fields ? { fields } : {}) }),
    warn: (message, fields) =>
      lines.push({ level: "warn", message, ...(fields ? { fields } : {}) }),
  };
  return { lines, logger };
}

const fast = { retryBaseDelayMs: 1, retryMaxBackoffMs: 4 };
const models = { object: "list", data: [{ id: "reel-chat-1", object: "model" }] };

describe("transport: headers", () => {
  it("sends the bearer key and JSON content type to the base URL", async () => {
    const server = await serve((_request, response) => sendJSON(response, 200, models));
    const client = createClient({ baseURL: `${server.url}/v1/`, apiKey: testKey, ...fast });
    await client.models.list();
    await client.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "hi" }] })
      .catch(() => {});
    expect(server.requests[0]?.url).toBe("/v1/models");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${testKey}`);
    expect(server.requests[0]?.headers["content-type"]).toBeUndefined();
    expect(server.requests[1]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server.requests[1]!.body).messages[0].content).toBe("hi");
  });
});

describe("transport: status errors", () => {
  const cases: [number, new (...args: never[]) => APIError, boolean][] = [
    [400, BadRequestError, false],
    [401, AuthenticationError, false],
    [403, PermissionDeniedError, false],
    [404, NotFoundError, false],
    [409, ConflictError, true],
    [422, UnprocessableEntityError, false],
    [429, RateLimitError, true],
    [500, InternalServerError, true],
    [503, InternalServerError, true],
  ];
  for (const [status, errorClass, retried] of cases) {
    it(`maps ${status} to ${errorClass.name} (${retried ? "retried" : "not retried"})`, async () => {
      const server = await serve((_request, response) =>
        sendJSON(
          response,
          status,
          { error: { message: "nope", type: "some_type", param: "model", code: "some_code" } },
          { "x-request-id": "req_123" },
        ),
      );
      const client = createClient({ baseURL: server.url, apiKey: testKey, maxRetries: 2, ...fast });
      const error = await client.models.list().catch((caught: unknown) => caught);
      expect((errorClass as unknown as typeof APIError).isInstance(error)).toBe(true);
      const apiError = error as APIError;
      expect(apiError.status).toBe(status);
      expect(apiError.code).toBe("some_code");
      expect(apiError.type).toBe("some_type");
      expect(apiError.param).toBe("model");
      expect(apiError.requestId).toBe("req_123");
      expect(apiError.message).toContain("nope");
      expect(server.requests).toHaveLength(retried ? 3 : 1);
    });
  }

  it("retries 408 and then succeeds", async () => {
    const server = await serve((_request, response, _recorded, index) =>
      index === 0
        ? sendJSON(response, 408, { error: { message: "slow" } })
        : sendJSON(response, 200, models),
    );
    const client = createClient({ baseURL: server.url, apiKey: testKey, ...fast });
    expect((await client.models.list())[0]?.id).toBe("reel-chat-1");
    expect(server.requests).toHaveLength(2);
  });

  it("honours x-should-retry", async () => {
    const server = await serve((_request, response) =>
      sendJSON(response, 400, { error: { message: "try again" } }, { "x-should-retry": "true" }),
    );
    const client = createClient({ baseURL: server.url, apiKey: testKey, maxRetries: 1, ...fast });
    await expect(client.models.list()).rejects.toBeInstanceOf(BadRequestError);
    expect(server.requests).toHaveLength(2);
  });

  it("uses a default code when the body has none, and tolerates a non-JSON body", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<h1>bad gateway</h1>");
    });
    const client = createClient({ baseURL: server.url, apiKey: testKey, maxRetries: 0, ...fast });
    const error = (await client.models
      .list()
      .catch((caught: unknown) => caught)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBe("internal_server_error");
    expect(error.status).toBe(502);
    expect(error.message).toContain("bad gateway");
  });
});

describe("transport: retry delays", () => {
  it("waits retry-after-ms, retry-after seconds, capped by maxRetryDelayMs", async () => {
    const hints: Record<string, string>[] = [
      { "retry-after-ms": "30" },
      { "retry-after": "0.02" },
      { "retry-after": "3600" },
    ];
    const server = await serve((_request, response, _recorded, index) =>
      index < hints.length
        ? sendJSON(response, 429, { error: { message: "slow down" } }, hints[index])
        : sendJSON(response, 200, models),
    );
    const { lines, logger } = recordingLogger();
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      maxRetries: 3,
      maxRetryDelayMs: 40,
      logger,
      ...fast,
    });
    await client.models.list();
    const delays = lines
      .filter((line) => line.message === "retrying request")
      .map((line) => line.fields?.delayMs);
    expect(delays).toEqual([30, 20, 40]);
    expect(server.requests).toHaveLength(4);
  });

  it("backs off exponentially without a hint", async () => {
    const server = await serve((_request, response) =>
      sendJSON(response, 503, { error: { message: "down" } }),
    );
    const { lines, logger } = recordingLogger();
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      maxRetries: 4,
      retryBaseDelayMs: 4,
      retryMaxBackoffMs: 16,
      logger,
    });
    await expect(client.models.list()).rejects.toBeInstanceOf(InternalServerError);
    const delays = lines
      .filter((line) => line.message === "retrying request")
      .map((line) => line.fields?.delayMs as number);
    expect(delays).toHaveLength(4);
    // 4, 8, 16, 16 (cap), each scaled by a jitter factor in [0.75, 1]
    [4, 8, 16, 16].forEach((ceiling, index) => {
      expect(delays[index]).toBeLessThanOrEqual(ceiling);
      expect(delays[index]).toBeGreaterThanOrEqual(Math.floor(ceiling * 0.75));
    });
  });
});

describe("transport: connection failures, timeouts, aborts", () => {
  it("retries a refused connection and then reports APIConnectionError", async () => {
    const port = await freePort();
    const { lines, logger } = recordingLogger();
    const client = createClient({
      baseURL: `http://127.0.0.1:${port}`,
      apiKey: testKey,
      logger,
      ...fast,
    });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(APIConnectionError.isInstance(error)).toBe(true);
    expect(APITimeoutError.isInstance(error)).toBe(false);
    expect(lines.filter((line) => line.message === "retrying request")).toHaveLength(2);
  });

  it("times out an attempt that gets no headers, and retries it", async () => {
    const server = await serve(() => {
      /* never answers */
    });
    const { lines, logger } = recordingLogger();
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      timeoutMs: 50,
      maxRetries: 1,
      logger,
      ...fast,
    });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(APITimeoutError.isInstance(error)).toBe(true);
    expect((error as APITimeoutError).timeoutMs).toBe(50);
    // Counted on the client's side: on a loaded machine a 50 ms attempt can end before
    // the server has even seen its request.
    expect(lines.filter((line) => line.message === "request")).toHaveLength(2);
  });

  it("times out an attempt whose body stalls after the headers", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"object":"list","data":[');
    });
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      timeoutMs: 80,
      maxRetries: 0,
    });
    await expect(client.models.list()).rejects.toBeInstanceOf(APITimeoutError);
  });

  it("never retries a user abort, and tells it from a timeout", async () => {
    const controller = new AbortController();
    // The server never answers; the caller gives up once the request has arrived.
    const server = await serve(() => controller.abort());
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      timeoutMs: 10_000,
      ...fast,
    });
    const error = await client.models
      .list({ signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(APIUserAbortError.isInstance(error)).toBe(true);
    expect(APITimeoutError.isInstance(error)).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("aborts during the back-off sleep", async () => {
    const server = await serve((_request, response) =>
      sendJSON(response, 503, { error: { message: "down" } }),
    );
    const controller = new AbortController();
    const logger: Logger = { warn: () => controller.abort() }; // abort as the retry is announced
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      retryBaseDelayMs: 60_000,
      logger,
    });
    await expect(client.models.list({ signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("rejects at once with an already aborted signal, sending nothing", async () => {
    const server = await serve((_request, response) => sendJSON(response, 200, models));
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    await expect(client.models.list({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("applies per-call timeoutMs and maxRetries", async () => {
    const server = await serve(() => {});
    const { lines, logger } = recordingLogger();
    const client = createClient({ baseURL: server.url, apiKey: testKey, logger, ...fast });
    const error = await client.models
      .list({ timeoutMs: 30, maxRetries: 0 })
      .catch((caught: unknown) => caught);
    expect(APITimeoutError.isInstance(error)).toBe(true);
    expect((error as APITimeoutError).timeoutMs).toBe(30);
    expect(lines.filter((line) => line.message === "request")).toHaveLength(1);
  });
});

describe("transport: beforeRequest", () => {
  it("is asked before each request leaves, with its method, path and idempotency key; a refusal sends nothing", async () => {
    const job = { id: "video_1", object: "video", status: "queued", model: "m", progress: 0 };
    const server = await serve((_request, response) => sendJSON(response, 200, job));
    const seen: unknown[] = [];
    let allow = true;
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      ...fast,
      beforeRequest: (request) => {
        seen.push(request);
        if (!allow) throw new Error("this worker no longer holds the unit");
      },
    });
    await client.videos.retrieve("video_1");
    await client.videos.create({ model: "m", prompt: "a fox" }, { idempotencyKey: "key-1" });
    expect(seen).toEqual([
      { method: "GET", path: "/v1/videos/video_1" },
      { method: "POST", path: "/v1/videos", idempotencyKey: "key-1" },
    ]);
    expect(server.requests).toHaveLength(2);
    allow = false;
    await expect(
      client.videos.create({ model: "m", prompt: "a fox" }, { idempotencyKey: "key-2" }),
    ).rejects.toThrow("this worker no longer holds the unit");
    // Refused before it left: the service saw nothing more.
    expect(server.requests).toHaveLength(2);
  });
});
