import { MockAgent, fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { APIError } from "../errors/index.js";
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
});
