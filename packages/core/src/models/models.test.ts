import { afterEach, describe, expect, it } from "vitest";
import {
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import { normalizeModelList } from "./models.js";

describe("models.list", () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it("accepts the OpenAI list shape and a bare array", async () => {
    const shapes = [
      { object: "list", data: [{ id: "reel-chat-1", object: "model", owned_by: "reel" }] },
      [{ id: "reel-chat-1", object: "model", owned_by: "reel" }],
    ];
    server = await startTestServer((_request, response, _recorded, index) =>
      sendJSON(response, 200, shapes[index]),
    );
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    expect(await client.models.list()).toEqual([
      { id: "reel-chat-1", object: "model", owned_by: "reel" },
    ]);
    expect(await client.models.list()).toEqual([
      { id: "reel-chat-1", object: "model", owned_by: "reel" },
    ]);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      "GET /v1/models",
      "GET /v1/models",
    ]);
  });

  it("normalises strings and drops entries without an id", () => {
    expect(normalizeModelList({ models: ["a", { id: "b" }, { name: "c" }] })).toEqual([
      { id: "a" },
      { id: "b" },
    ]);
    expect(() => normalizeModelList({ nothing: true })).toThrow(/unknown shape/);
  });
});
