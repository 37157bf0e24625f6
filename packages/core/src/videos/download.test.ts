import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pause, startTestServer, type TestServer, testKey } from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import {
  APIConnectionError,
  APIUserAbortError,
  NotFoundError,
  StreamIdleTimeoutError,
} from "../errors/index.js";

const servers: TestServer[] = [];
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "reelsmith-download-"));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

async function serve(handler: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

const payload = Buffer.alloc(300_000, 7);

describe("videos.downloadContent", () => {
  it("streams the content into the target through a temp file, reporting progress", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "video/mp4", "content-length": payload.length });
      response.end(payload);
    });
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    const progress: { bytes: number; total?: number }[] = [];
    const to = join(dir, "nested", "clip.mp4");
    const result = await client.videos.downloadContent("video_1", {
      to,
      onProgress: (update) => progress.push(update),
    });
    expect(result).toEqual({ path: to, bytes: payload.length });
    expect((await readFile(to)).equals(payload)).toBe(true);
    expect(await readdir(join(dir, "nested"))).toEqual(["clip.mp4"]);
    expect(progress.at(-1)).toEqual({ bytes: payload.length, total: payload.length });
    expect(server.requests[0]?.url).toBe("/v1/videos/video_1/content");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${testKey}`);
  });

  it("follows a redirect to another origin without the Authorization header", async () => {
    const cdn = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "video/mp4" });
      response.end(payload);
    });
    const service = await serve((_request, response) => {
      response.writeHead(302, { location: `${cdn.url}/files/clip.mp4?sig=abc` });
      response.end();
    });
    const client = createClient({ baseURL: service.url, apiKey: testKey });
    const to = join(dir, "clip.mp4");
    await client.videos.downloadContent("video_1", { to });
    expect((await readFile(to)).length).toBe(payload.length);
    expect(service.requests[0]?.headers.authorization).toBe(`Bearer ${testKey}`);
    expect(cdn.requests[0]?.url).toBe("/files/clip.mp4?sig=abc");
    expect(cdn.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("fetches a video_url on another origin without the Authorization header", async () => {
    const cdn = await serve((_request, response) => {
      response.end(payload);
    });
    const service = await serve((_request, response) => {
      response.end("{}");
    });
    // Even a credential the caller put in custom headers, in any spelling, stays home.
    const client = createClient({
      baseURL: service.url,
      apiKey: testKey,
      defaultHeaders: { Authorization: `Bearer ${testKey}` },
    });
    await client.videos.downloadContent("video_1", {
      to: join(dir, "a.mp4"),
      url: `${cdn.url}/v.mp4`,
      headers: { AUTHORIZATION: `Bearer ${testKey}`, "x-trace": "t1" },
    });
    expect(cdn.requests[0]?.headers.authorization).toBeUndefined();
    expect(cdn.requests[0]?.headers["x-trace"]).toBe("t1");
    expect(service.requests).toHaveLength(0);
  });

  it("leaves nothing behind when the connection drops mid-body", async () => {
    const server = await serve(async (_request, response) => {
      response.writeHead(200, { "content-length": payload.length * 2 });
      response.write(payload);
      await pause(20);
      response.socket?.destroy();
    });
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    const error = await client.videos
      .downloadContent("video_1", { to: join(dir, "a.mp4") })
      .catch((caught: unknown) => caught);
    expect(APIConnectionError.isInstance(error)).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it("downloads again from the start when the body breaks off", async () => {
    const server = await serve(async (_request, response, _recorded, index) => {
      response.writeHead(200, { "content-length": payload.length });
      if (index === 0) {
        response.write(payload.subarray(0, 1000));
        await pause(10);
        response.socket?.destroy();
        return;
      }
      response.end(payload);
    });
    const client = createClient({ baseURL: server.url, apiKey: testKey, retryBaseDelayMs: 1 });
    const to = join(dir, "a.mp4");
    expect((await client.videos.downloadContent("video_1", { to })).bytes).toBe(payload.length);
    expect((await readFile(to)).equals(payload)).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(await readdir(dir)).toEqual(["a.mp4"]);
  });

  it("fails a stalled download with StreamIdleTimeoutError and removes the temp file", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-length": payload.length * 2 });
      response.write(payload);
    });
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      streamIdleTimeoutMs: 80,
      maxRetries: 0,
    });
    await expect(
      client.videos.downloadContent("video_1", { to: join(dir, "a.mp4") }),
    ).rejects.toBeInstanceOf(StreamIdleTimeoutError);
    expect(await readdir(dir)).toEqual([]);
  });

  it("stops on abort and removes the temp file", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200);
      response.write(payload);
    });
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    const controller = new AbortController();
    const pending = client.videos.downloadContent("video_1", {
      to: join(dir, "a.mp4"),
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(await readdir(dir)).toEqual([]);
  });

  it("reports an error status without creating a file", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(404, { "content-type": "application/json" });
      response.end('{"error":{"message":"no such video"}}');
    });
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    await expect(
      client.videos.downloadContent("nope", { to: join(dir, "a.mp4") }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await readdir(dir)).toEqual([]);
  });
});
