import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  type RecordedRequest,
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import { VideoJobFailedError } from "../errors/index.js";
import type { VideoJob, VideoModelCatalog } from "./types.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A real 1×1 PNG. */
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5]);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The multipart body of a recorded request, parsed as a server would. */
async function formOf(recorded: RecordedRequest) {
  const type = String(recorded.headers["content-type"]);
  return new Response(recorded.bytes, { headers: { "content-type": type } }).formData();
}

const catalog: VideoModelCatalog = [
  {
    id: "sora-2",
    seconds: [4, 8, 12],
    sizes: ["1280x720", "720x1280"],
    image: true,
    params: {
      seed: { type: "integer" },
      generate_audio: { type: "boolean" },
      style: { type: "string", enum: ["noir", "pastel"] },
      last_frame: { type: "image" },
    },
  },
];

/** An openai-dialect job as OpenAI's API returns it. */
function openaiJob(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: "video_abc",
    object: "video",
    created_at: 1_760_000_000,
    status,
    model: "sora-2",
    prompt: "a fox",
    progress: 0,
    seconds: "8",
    size: "1280x720",
    completed_at: null,
    expires_at: null,
    error: null,
    remixed_from_video_id: null,
    ...extra,
  };
}

describe("the openai dialect", () => {
  it("sends a multipart body: fields, params, and images as file parts with type and name", async () => {
    const server = await startTestServer((_request, response) =>
      sendJSON(response, 200, openaiJob("queued")),
    );
    servers.push(server);
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      dialect: "openai",
      videoModels: catalog,
    });
    const job = await client.videos.create({
      model: "sora-2",
      prompt: "a fox",
      seconds: 8,
      size: "1280x720",
      image: png,
      params: {
        seed: 42,
        generate_audio: true,
        style: "noir",
        last_frame: { data: jpeg, filename: "end.jpg" },
      },
    });
    expect(job).toMatchObject({ id: "video_abc", status: "pending", created: 1_760_000_000 });
    expect(job.completed_at).toBeUndefined();
    const recorded = server.requests[0]!;
    expect(recorded.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(recorded.headers["idempotency-key"]).toBeDefined();
    const form = await formOf(recorded);
    expect([...form.keys()]).toEqual([
      "model",
      "prompt",
      "seconds",
      "size",
      "input_reference",
      "seed",
      "generate_audio",
      "style",
      "last_frame",
    ]);
    expect(form.get("seconds")).toBe("8");
    expect(form.get("seed")).toBe("42");
    expect(form.get("generate_audio")).toBe("true");
    const reference = form.get("input_reference") as File;
    expect(reference.type).toBe("image/png");
    expect(reference.name).toBe("input_reference.png");
    expect(sha256(new Uint8Array(await reference.arrayBuffer()))).toBe(sha256(png));
    const lastFrame = form.get("last_frame") as File;
    expect(lastFrame.type).toBe("image/jpeg");
    expect(lastFrame.name).toBe("end.jpg");
    expect(Buffer.from(await lastFrame.arrayBuffer())).toEqual(jpeg);
  });

  it("sends a data-URI image as a file and an http(s) one as input_reference[image_url]", async () => {
    const server = await startTestServer((_request, response) =>
      sendJSON(response, 200, openaiJob("queued")),
    );
    servers.push(server);
    const client = createClient({ baseURL: server.url, apiKey: testKey, dialect: "openai" });
    await client.videos.create({
      model: "sora-2",
      prompt: "a fox",
      image_url: `data:image/png;base64,${png.toString("base64")}`,
    });
    await client.videos.create({
      model: "sora-2",
      prompt: "a fox",
      image: "https://cdn.test/a.png",
    });
    const first = await formOf(server.requests[0]!);
    const file = first.get("input_reference") as File;
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
    const second = await formOf(server.requests[1]!);
    expect(second.get("input_reference[image_url]")).toBe("https://cdn.test/a.png");
    expect(second.has("input_reference")).toBe(false);
  });

  it("waits through queued → in_progress → completed, keeping progress", async () => {
    const sequence = [
      openaiJob("queued"),
      openaiJob("in_progress", { progress: 40 }),
      openaiJob("in_progress", { progress: 80 }),
      openaiJob("completed", { progress: 100, completed_at: 1_760_000_100 }),
    ];
    const server = await startTestServer((request, response, _recorded, index) => {
      if (request.method === "POST") return sendJSON(response, 200, sequence[0]);
      sendJSON(response, 200, sequence[Math.min(index, sequence.length - 1)]);
    });
    servers.push(server);
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      dialect: "openai",
      pollIntervalMs: 1,
    });
    const seen: [string, number | undefined][] = [];
    const job = await client.videos.createAndWait(
      { model: "sora-2", prompt: "a fox", seconds: 8 },
      { onUpdate: (update) => seen.push([update.status, update.progress]) },
    );
    expect(seen).toEqual([
      ["processing", 40],
      ["processing", 80],
      ["completed", 100],
    ]);
    expect(job).toMatchObject({
      status: "completed",
      created: 1_760_000_000,
      created_at: 1_760_000_000,
      completed_at: 1_760_000_100,
    });
    expect(job.error).toBeUndefined();
  });

  it("maps a failed job's error object onto VideoJobFailedError", async () => {
    const server = await startTestServer((_request, response) =>
      sendJSON(
        response,
        200,
        openaiJob("failed", {
          error: { code: "moderation_blocked", message: "The prompt was blocked." },
        }),
      ),
    );
    servers.push(server);
    const client = createClient({ baseURL: server.url, apiKey: testKey, dialect: "openai" });
    const error = await client.videos.waitFor("video_abc").catch((caught: unknown) => caught);
    expect(VideoJobFailedError.isInstance(error)).toBe(true);
    const failed = error as VideoJobFailedError;
    expect(failed.serviceCode).toBe("moderation_blocked");
    expect(failed.serviceMessage).toBe("The prompt was blocked.");
    expect(failed.job.error).toEqual({
      code: "moderation_blocked",
      message: "The prompt was blocked.",
    });
    expect(failed.message).toBe(
      "Video job video_abc failed: The prompt was blocked. (moderation_blocked)",
    );
  });

  it("checks params against the catalog before sending anything", async () => {
    const server = await startTestServer((_request, response) =>
      sendJSON(response, 200, openaiJob("queued")),
    );
    servers.push(server);
    const client = createClient({
      baseURL: server.url,
      apiKey: testKey,
      dialect: "openai",
      videoModels: catalog,
    });
    await expect(
      client.videos.create({ model: "sora-2", prompt: "p", params: { style: "sepia" } }),
    ).rejects.toMatchObject({ field: "params.style" });
    await expect(
      client.videos.create({ model: "sora-2", prompt: "p", params: { seed: "42" } }),
    ).rejects.toMatchObject({ field: "params.seed" });
    expect(server.requests).toHaveLength(0);
  });
});

describe("the reference dialect", () => {
  it("sends JSON: params as extra fields, images as data URIs or URLs", async () => {
    const server = await startTestServer((_request, response) =>
      sendJSON(response, 200, {
        id: "v1",
        object: "video",
        status: "pending",
        created: 5,
        model: "sora-2",
        prompt: "a fox",
      }),
    );
    servers.push(server);
    const client = createClient({ baseURL: server.url, apiKey: testKey, videoModels: catalog });
    const job: VideoJob = await client.videos.create({
      model: "sora-2",
      prompt: "a fox",
      seconds: 4,
      image: png,
      params: { seed: 7, generate_audio: false, last_frame: "https://cdn.test/end.png" },
    });
    expect(job.created).toBe(5);
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      model: "sora-2",
      prompt: "a fox",
      seconds: "4",
      image_url: `data:image/png;base64,${png.toString("base64")}`,
      seed: 7,
      generate_audio: false,
      last_frame: "https://cdn.test/end.png",
    });
  });

  it("normalises a string error into its message", async () => {
    const server = await startTestServer((_request, response) =>
      sendJSON(response, 200, {
        id: "v1",
        object: "video",
        status: "failed",
        created: 5,
        model: "m",
        prompt: "p",
        error: "out of capacity",
      }),
    );
    servers.push(server);
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    const error = (await client.videos
      .waitFor("v1")
      .catch((caught: unknown) => caught)) as VideoJobFailedError;
    expect(error.serviceMessage).toBe("out of capacity");
    expect(error.serviceCode).toBeUndefined();
  });
});

describe("a refusal that points at the other dialect", () => {
  it("names the dialect setting to change on a 400 or 415 about the body's encoding, and only then", async () => {
    const server = await startTestServer((request, response) => {
      const json = String(request.headers["content-type"]).startsWith("application/json");
      if (request.url === "/v1/videos" && !json)
        return sendJSON(response, 400, {
          error: { message: "body must be JSON", type: "invalid_request_error" },
        });
      if (request.url === "/v1/videos")
        return sendJSON(response, 415, {
          error: { message: "Unsupported media type: expected multipart/form-data" },
        });
      return sendJSON(response, 404, { error: { message: "no such route" } });
    });
    servers.push(server);
    const openai = createClient({
      baseURL: server.url,
      apiKey: testKey,
      dialect: "openai",
      maxRetries: 0,
    });
    const refused = await openai.videos
      .create({ model: "m", prompt: "a fox" })
      .catch((error) => error);
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("body must be JSON");
    expect(refused.message).toContain(
      "set `dialect: reference` under `service:` in the provider profile",
    );
    expect(refused.hint).toBe("set `service: { dialect: reference }` in the provider profile");
    const reference = createClient({ baseURL: server.url, apiKey: testKey, maxRetries: 0 });
    const other = await reference.videos
      .create({ model: "m", prompt: "a fox" })
      .catch((error) => error);
    expect(other.status).toBe(415);
    expect(other.message).toContain("set `dialect: openai` under `service:`");
    // A refusal about anything else says nothing of dialects.
    const plain = createClient({
      baseURL: `${server.url}/elsewhere`,
      apiKey: testKey,
      maxRetries: 0,
    });
    const missing = await plain.videos
      .create({ model: "m", prompt: "a fox" })
      .catch((error) => error);
    expect(missing.status).toBe(404);
    expect(missing.message).not.toContain("dialect");
  });
});
