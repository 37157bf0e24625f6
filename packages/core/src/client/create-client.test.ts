import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { MissingConfigurationError } from "../errors/index.js";
import { normalizeBaseURL } from "./config.js";
import { createClient } from "./create-client.js";

describe("createClient configuration", () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it("strips one trailing /v1 and slashes from the base URL", () => {
    expect(normalizeBaseURL("http://h:1/v1")).toBe("http://h:1");
    expect(normalizeBaseURL("http://h:1/v1/")).toBe("http://h:1");
    expect(normalizeBaseURL("https://h/api/v1")).toBe("https://h/api");
    expect(normalizeBaseURL("https://h/api/")).toBe("https://h/api");
    expect(() => normalizeBaseURL("https://user:sk-pw@h/")).toThrow(
      /holds credentials \(https:\/\/\*\*\*@h\/\)/,
    );
    expect(() => normalizeBaseURL("http://")).toThrow(/not a valid URL|no host/);
    expect(() => normalizeBaseURL("not a url")).toThrow(MissingConfigurationError);
  });

  it("falls back to REELSMITH_* then OPENAI_* variables", async () => {
    server = await startTestServer((_request, response) => sendJSON(response, 200, []));
    const both = createClient({
      env: {
        REELSMITH_BASE_URL: server.url,
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
        REELSMITH_API_KEY: "reel-key",
        OPENAI_API_KEY: "openai-key",
      },
    });
    expect(both.baseURL).toBe(server.url);
    await both.models.list();
    expect(server.requests[0]?.headers.authorization).toBe("Bearer reel-key");
    const openai = createClient({
      env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: "openai-key" },
    });
    expect(openai.baseURL).toBe(server.url);
    await openai.models.list();
    expect(server.requests[1]?.headers.authorization).toBe("Bearer openai-key");
    const explicit = createClient({
      baseURL: server.url,
      apiKey: "given",
      env: { REELSMITH_API_KEY: "reel-key" },
    });
    await explicit.models.list();
    expect(server.requests[2]?.headers.authorization).toBe("Bearer given");
  });

  it("fails on the first call, not at creation, when configuration is missing", async () => {
    const noBase = createClient({ env: {} });
    expect(noBase.baseURL).toBe("");
    const error = await noBase.models.list().catch((caught: unknown) => caught);
    expect(MissingConfigurationError.isInstance(error)).toBe(true);
    expect((error as MissingConfigurationError).setting).toBe("baseURL");
    const noKey = createClient({ env: { REELSMITH_BASE_URL: "http://127.0.0.1:9" } });
    await expect(noKey.models.list()).rejects.toMatchObject({
      setting: "apiKey",
      code: "missing_configuration",
    });
  });

  it("rejects nonsensical numeric options with a clear message", () => {
    expect(() => createClient({ timeoutMs: -1 })).toThrow(/`timeoutMs` to be a finite number/);
    expect(() => createClient({ maxRetries: Number.NaN })).toThrow(/maxRetries/);
  });

  it("does not expose the API key on the client", () => {
    const client = createClient({ baseURL: "http://127.0.0.1:9", apiKey: testKey });
    expect(JSON.stringify(client)).not.toContain(testKey);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(testKey);
  });

  it("never prints: retries and failures go to the logger only", async () => {
    server = await startTestServer((_request, response) =>
      sendJSON(response, 503, { error: { message: "down" } }, { "retry-after-ms": "1" }),
    );
    const methods = ["log", "info", "warn", "error", "debug"] as const;
    const spies = methods.map((method) => vi.spyOn(console, method).mockImplementation(() => {}));
    try {
      const warnings: string[] = [];
      const client = createClient({
        baseURL: server.url,
        apiKey: testKey,
        logger: { warn: (message) => warnings.push(message) },
      });
      await expect(client.models.list()).rejects.toThrow(/down/);
      await expect(
        createClient({
          baseURL: server.url,
          apiKey: testKey,
          maxRetries: 1,
          retryBaseDelayMs: 1,
        }).models.list(),
      ).rejects.toThrow();
      expect(warnings).toEqual(["retrying request", "retrying request"]);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
