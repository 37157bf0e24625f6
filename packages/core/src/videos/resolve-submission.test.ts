import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import { AmbiguousSubmissionError } from "../errors/ambiguous-submission-error.js";

const params = { model: "sora-2", prompt: "a fox in the snow", seconds: 4, size: "1280x720" };
const now = Math.floor(Date.now() / 1000);

function job(id: string, created: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    object: "video",
    status: "processing",
    model: "sora-2",
    prompt: params.prompt,
    seconds: "4",
    size: "1280x720",
    created_at: created,
    ...extra,
  };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("videos.resolveSubmission", () => {
  it("finds the jobs a lost submission made across pages of GET /v1/videos, oldest first", async () => {
    const pages: Record<string, unknown> = {
      "": {
        object: "list",
        data: [job("v5", now), job("v4", now, { prompt: "other" }), job("v3", now - 1)],
        has_more: true,
        last_id: "v3",
      },
      v3: {
        object: "list",
        data: [job("v2", now - 2, { seconds: "8" }), job("v1", now - 3600)],
        has_more: true,
        last_id: "v1",
      },
    };
    server = await startTestServer((request, response) => {
      const url = new URL(request.url ?? "", "http://x");
      expect(url.pathname).toBe("/v1/videos");
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(pages[url.searchParams.get("after") ?? ""]));
    });
    const client = createClient({ baseURL: server.url, apiKey: "sk-test" });
    const found = await client.videos.resolveSubmission(params, {
      idempotencyKey: "k",
      sinceMs: Date.now() - 10_000,
    });
    expect(found.via).toBe("list");
    expect(found.jobs.map((j) => j.id)).toEqual(["v3", "v5"]);
    // The second page is older than the window: listing stopped there.
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "GET"]);
    expect(server.requests.some((r) => r.method === "POST")).toBe(false);
  });

  it("refuses to guess on a service that neither lists its jobs nor honours keys", async () => {
    server = await startTestServer((_request, response) => {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: { message: "Unknown route", type: "invalid_request_error" } }),
      );
    });
    const client = createClient({ baseURL: server.url, apiKey: "sk-test", maxRetries: 0 });
    const error = await client.videos
      .resolveSubmission(params, { idempotencyKey: "key-1", sinceMs: Date.now() })
      .catch((caught: unknown) => caught);
    expect(AmbiguousSubmissionError.isInstance(error)).toBe(true);
    expect((error as AmbiguousSubmissionError).resolvable).toBe(false);
    expect((error as Error).message).toContain("key-1");
    expect(server.requests.every((r) => r.method === "GET")).toBe(true);
  });

  it("sends the submission again with its key when the service honours keys", async () => {
    server = await startTestServer((_request, response) => {
      response.writeHead(200, {
        "content-type": "application/json",
        "idempotent-replayed": "true",
      });
      response.end(JSON.stringify(job("v9", now)));
    });
    const client = createClient({
      baseURL: server.url,
      apiKey: "sk-test",
      honoursIdempotencyKeys: true,
    });
    const found = await client.videos.resolveSubmission(params, {
      idempotencyKey: "key-2",
      sinceMs: Date.now(),
    });
    expect(found).toMatchObject({ via: "idempotency-key", jobs: [{ id: "v9" }] });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      url: "/v1/videos",
      headers: { "idempotency-key": "key-2" },
    });
  });
});
