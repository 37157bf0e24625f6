import { MockAgent, fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { APIError, APITimeoutError, APIUserAbortError } from "../errors/index.js";
import { createClient } from "./create-client.js";

describe("createClient({ fetch })", () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it("lets a test intercept the client's requests with undici's MockAgent", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const service = agent.get("https://service.test");
    service
      .intercept({
        path: "/v1/models",
        method: "GET",
        headers: { authorization: "Bearer sk-test" },
      })
      .reply(200, { object: "list", data: [{ id: "intercepted-model", object: "model" }] });
    service.intercept({ path: "/v1/models", method: "GET" }).reply(
      404,
      { error: { message: "No such model", code: "model_not_found" } },
      {
        headers: { "x-request-id": "req_1" },
      },
    );
    const client = createClient({
      baseURL: "https://service.test/v1",
      apiKey: "sk-test",
      // As packages/core/README.md writes it: no cast, so the README's example type-checks.
      fetch: (input, init) => undiciFetch(input, { ...init, dispatcher: agent }),
    });
    expect((await client.models.list()).map((model) => model.id)).toEqual(["intercepted-model"]);
    const error = await client.models.list({ maxRetries: 0 }).catch((caught: unknown) => caught);
    expect(APIError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, requestId: "req_1", code: "model_not_found" });
    agent.assertNoPendingInterceptors();
    await agent.close();
  });

  it("retries through a caller's fetch like through undici's request", async () => {
    server = await startTestServer((_request, response, _recorded, index) => {
      if (index === 0) sendJSON(response, 503, { error: { message: "busy" } });
      else sendJSON(response, 200, { object: "list", data: [{ id: "m", object: "model" }] });
    });
    const seen: string[] = [];
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      retryBaseDelayMs: 1,
      fetch: (input, init) => {
        seen.push(`${init?.method} ${String(input)}`);
        return fetch(input, init);
      },
    });
    expect((await client.models.list()).map((model) => model.id)).toEqual(["m"]);
    await server.waitForRequests(2);
    expect(seen).toEqual([`GET ${server.url}/v1/models`, `GET ${server.url}/v1/models`]);
    expect(server.requests[1]?.headers.authorization).toBe(`Bearer ${testKey}`);
  });

  it("gives a caller's fetch a signal that the attempt's timeout and the caller's abort fire", async () => {
    // The server never answers: only the signal ends each request.
    server = await startTestServer(() => undefined);
    const signals: AbortSignal[] = [];
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      timeoutMs: 50,
      maxRetries: 0,
      fetch: (input, init) => {
        if (init?.signal) signals.push(init.signal);
        return fetch(input, init);
      },
    });
    const timedOut = await client.models.list().catch((caught: unknown) => caught);
    expect(APITimeoutError.isInstance(timedOut)).toBe(true);
    expect(signals[0]?.aborted).toBe(true);
    const controller = new AbortController();
    const asked = client.models
      .list({ signal: controller.signal, timeoutMs: 10_000 })
      .catch((caught: unknown) => caught);
    await server.waitForRequests(2);
    controller.abort();
    const aborted = await asked;
    expect(APIUserAbortError.isInstance(aborted)).toBe(true);
    expect(signals[1]?.aborted).toBe(true);
  });
});

describe("createClient({ dispatcher })", () => {
  it("sends every request through the caller's undici dispatcher", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get("https://service.test")
      .intercept({ path: "/v1/videos?limit=1&after=video_0", method: "GET" })
      .reply(200, { object: "list", data: [], has_more: false });
    const client = createClient({
      baseURL: "https://service.test/v1",
      apiKey: "sk-test",
      dispatcher: agent,
    });
    // Its path and query reach the dispatcher as written.
    const page = await client.videos.list({ limit: 1, after: "video_0" });
    expect(page).toMatchObject({ data: [], has_more: false });
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
});
