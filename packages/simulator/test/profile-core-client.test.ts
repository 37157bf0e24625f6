import { createHash } from "node:crypto";
import { createClient } from "@reelsmith/core";
import { BadRequestError, InvalidProfileError, VideoJobFailedError } from "@reelsmith/core/errors";
import { clientOptionsFromProfile, type ProviderProfile } from "@reelsmith/core/profile";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { call, makePng } from "./helpers.js";
import { openaiProfile } from "./profile-fixture.js";

const simulators: Simulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((simulator) => simulator.close()));
});

async function serve(options: Parameters<typeof startSimulator>[0]) {
  const simulator = await startSimulator({ timeScale: 0.01, ...options });
  simulators.push(simulator);
  return simulator;
}

/** A core client set up from the profile, as a caller resolving api_key_env would. */
function clientFor(simulator: Simulator, profile: ProviderProfile, extra = {}) {
  return createClient({
    ...clientOptionsFromProfile(profile),
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs: 5,
    retryBaseDelayMs: 1,
    ...extra,
  });
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("@reelsmith/core against the simulator serving a profile", () => {
  it("openai dialect: params as form fields and image params as files, exactly as received", async () => {
    const profile = openaiProfile() as ProviderProfile;
    const simulator = await serve({ profile });
    const client = clientFor(simulator, profile);
    const reference = makePng(32, 18, [10, 120, 40]);
    const lastFrame = makePng(16, 9, [240, 240, 10]);
    const job = await client.videos.createAndWait({
      model: "sora-2",
      prompt: "A green field",
      seconds: 4,
      size: "640x360",
      image: reference,
      params: { seed: 7, style: "noir", generate_audio: true, last_frame: lastFrame },
    });
    expect(job).toMatchObject({ status: "completed", progress: 100 });
    expect(job.created).toBe(job.created_at);
    expect(job.usage).toBeUndefined();
    const [received] = simulator.videoRequests();
    expect(received?.fields).toEqual({
      model: "sora-2",
      prompt: "A green field",
      seconds: "4",
      size: "640x360",
      seed: "7",
      style: "noir",
      generate_audio: "true",
    });
    expect(received?.files.map((file) => [file.field, file.contentType, file.sha256])).toEqual([
      ["input_reference", "image/png", sha256(reference)],
      ["last_frame", "image/png", sha256(lastFrame)],
    ]);
    expect(received?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    // The same record over HTTP, for tests in another process.
    const overHttp = (await (await call(simulator, "/_simulator/requests")).json()) as {
      videos: unknown[];
    };
    expect(overHttp.videos).toEqual(simulator.videoRequests());
    await vi.waitFor(() => expect(simulator.stats().creditsCharged).toBe(18));
  });

  it("refuses an undeclared param, a wrong type and a value outside the set (400 naming it)", async () => {
    const profile = openaiProfile() as ProviderProfile;
    const simulator = await serve({ profile });
    // No local catalog: the simulator is the one to refuse.
    const client = clientFor(simulator, profile, { videoModels: null, maxRetries: 0 });
    const refusal = async (params: Record<string, string | number | boolean>) => {
      const error = await client.videos
        .create({ model: "sora-2", prompt: "p", seconds: 4, params })
        .catch((caught: unknown) => caught);
      expect(BadRequestError.isInstance(error)).toBe(true);
      return error as BadRequestError;
    };
    const undeclared = await refusal({ colour: "red" });
    expect(undeclared).toMatchObject({ param: "colour", code: "unknown_parameter" });
    expect(undeclared.message).toContain("it takes seed, style, generate_audio, last_frame");
    expect(await refusal({ seed: "soon" })).toMatchObject({ param: "seed", code: "invalid_value" });
    const outside = await refusal({ style: "sepia" });
    expect(outside.param).toBe("style");
    expect(outside.message).toContain("allowed: noir, pastel");
    expect(simulator.stats().videoJobs.created).toBe(0);
    // The local check of a profile's client says the same before sending anything.
    const checked = clientFor(simulator, profile);
    await expect(
      checked.videos.create({ model: "sora-2", prompt: "p", params: { style: "sepia" } }),
    ).rejects.toMatchObject({ field: "params.style" });
    expect(simulator.videoRequests()).toHaveLength(3);
  });

  it("reference dialect: JSON with params as fields, credits by the profile's price", async () => {
    const profile = openaiProfile() as ProviderProfile;
    const simulator = await serve({ profile, dialect: "reference" });
    const client = clientFor(simulator, profile, { dialect: "reference" });
    const job = await client.videos.createAndWait({
      model: "sora-2",
      prompt: "A red door",
      seconds: 8,
      size: "640x360",
      params: { seed: 3, style: "pastel" },
    });
    expect(job.usage?.total_credits).toBe(10 + 2 * 8);
    expect(job.created).toBeTypeOf("number");
    expect(simulator.videoRequests()[0]).toMatchObject({
      contentType: "application/json",
      fields: { model: "sora-2", seconds: "8", seed: 3, style: "pastel" },
      files: [],
    });
  });

  it("keeps fault injection working in the openai dialect", async () => {
    const profile = openaiProfile() as ProviderProfile;
    const simulator = await serve({ profile, faults: "503@videos.create:#1,fail-job:#2" });
    const client = clientFor(simulator, profile);
    const first = await client.videos.createAndWait({
      model: "veo-3-fast",
      prompt: "a",
      seconds: 1,
      size: "320x240",
    });
    expect(first.status).toBe("completed");
    const error = await client.videos
      .createAndWait({ model: "veo-3-fast", prompt: "b", seconds: 1, size: "320x240" })
      .catch((caught: unknown) => caught);
    expect(VideoJobFailedError.isInstance(error)).toBe(true);
    expect((error as VideoJobFailedError).serviceCode).toBe("video_generation_failed");
    const raw = (await (
      await call(simulator, `/v1/videos/${(error as VideoJobFailedError).job.id}`)
    ).json()) as Record<string, unknown>;
    expect(raw).toMatchObject({ status: "failed", error: { code: "video_generation_failed" } });
    // The simulator counts a request once its response has closed: wait for it to say so.
    await vi.waitFor(() =>
      expect(simulator.stats()).toMatchObject({
        faultsInjected: { "503": 1, "fail-job": 1 },
        requests: { "POST /v1/videos": { "503": 1, "200": 2 } },
      }),
    );
  });

  it("refuses a profile that is not valid, listing every problem with its pointer", async () => {
    const error = await startSimulator({
      profile: { service: { dialect: "grpc", api_key: "sk-x" } },
    }).catch((caught: unknown) => caught);
    expect(InvalidProfileError.isInstance(error)).toBe(true);
    expect((error as InvalidProfileError).problems.map((problem) => problem.pointer)).toEqual([
      "/service/api_key",
      "/service/dialect",
    ]);
  });
});
