import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  freePort,
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import type { Logger } from "../http/transport-config.js";
import { createClient } from "./create-client.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function exposures(value: unknown): string[] {
  const views = [
    inspect(value, { depth: 20, showHidden: true }),
    JSON.stringify(value) ?? "",
    String(value),
    (value as Error)?.stack ?? "",
  ];
  return views.filter((view) => view.includes(testKey));
}

describe("the API key never leaks", () => {
  it("not in errors (even when the server echoes it), their JSON, or log lines", async () => {
    const server = await startTestServer((request, response, _recorded, index) => {
      const echoed = request.headers.authorization ?? "";
      if (index === 0)
        sendJSON(response, 401, {
          error: { message: `Invalid key ${echoed}`, code: echoed, param: echoed },
        });
      else if (request.url === "/v1/models")
        sendJSON(
          response,
          429,
          { error: { message: `slow down ${echoed}` } },
          { "retry-after-ms": "1" },
        );
      else {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(`data: {"error":{"message":"mid-stream ${echoed}","code":"${echoed}"}}\n\n`);
      }
    });
    servers.push(server);
    const logged: unknown[] = [];
    const logger: Logger = {
      debug: (message, fields) => logged.push([message, fields]),
      info: (message, fields) => logged.push([message, fields]),
      warn: (message, fields) => logged.push([message, fields]),
      error: (message, fields) => logged.push([message, fields]),
    };
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      logger,
      maxRetries: 0,
      retryBaseDelayMs: 1,
    });
    const errors: unknown[] = [];
    errors.push(await client.models.list().catch((error: unknown) => error));
    const retrying = createClient({
      baseURL: server.url,
      apiKey: testKey,
      logger,
      maxRetries: 1,
      retryBaseDelayMs: 1,
    });
    errors.push(await retrying.models.list().catch((error: unknown) => error)); // 429, retried, 429 again
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    errors.push(await stream.finalCompletion().catch((error: unknown) => error));
    const refused = createClient({
      baseURL: `http://127.0.0.1:${await freePort()}`,
      apiKey: testKey,
      logger,
      maxRetries: 1,
      retryBaseDelayMs: 1,
    });
    errors.push(
      await refused.videos
        .create({ model: "sora-2", prompt: "p" })
        .catch((error: unknown) => error),
    );
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${testKey}`);
    expect(errors.every((error) => error instanceof Error)).toBe(true);
    expect((errors[0] as Error).message).toContain("[redacted]");
    for (const error of errors) {
      expect(exposures(error)).toEqual([]);
      expect(exposures((error as { toJSON(): unknown }).toJSON())).toEqual([]);
    }
    expect(logged.length).toBeGreaterThan(0);
    expect(exposures(logged)).toEqual([]);
  });
});
