import { createHash } from "node:crypto";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { makePng } from "./helpers.js";
import { openaiProfile } from "./profile-fixture.js";

type Video = OpenAI.Videos.Video;

/** Polls with the SDK until the job leaves queued/in_progress (as the Python SDK's create_and_poll). */
async function pollUntilDone(videos: OpenAI["videos"], id: string): Promise<Video[]> {
  const seen: Video[] = [];
  for (;;) {
    const job = await videos.retrieve(id);
    seen.push(job);
    if (job.status !== "queued" && job.status !== "in_progress") return seen;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the official openai SDK against the simulator serving a profile in the openai dialect", () => {
  let simulator: Simulator;
  let openai: OpenAI;
  beforeAll(async () => {
    simulator = await startSimulator({ profile: openaiProfile(), timeScale: 0.02 });
    openai = new OpenAI({
      baseURL: `${simulator.url}/v1`,
      apiKey: simulator.apiKey,
      maxRetries: 0,
    });
  });
  afterAll(() => simulator.close());

  it("takes the dialect from the profile and lists its chat and video models", async () => {
    expect(simulator.dialect).toBe("openai");
    const models: Record<string, unknown>[] = [];
    for await (const model of openai.models.list())
      models.push(model as unknown as Record<string, unknown>);
    expect(models.map((model) => model.id)).toEqual(["gpt-4o-mini", "sora-2", "veo-3-fast"]);
    expect(models[2]).toMatchObject({
      object: "model",
      owned_by: "reelsmith-simulator",
      type: "video",
      video: {
        seconds: { min: 1, max: 8 },
        sizes: { width: { min: 320, max: 1280 }, height: { min: 240, max: 1280 } },
        image: false,
        params: null,
        price: { per_second: 5 },
      },
    });
  });

  it("creates without a reference, polls queued → in_progress → completed, downloads an MP4", async () => {
    const created = await openai.videos.create({
      model: "veo-3-fast",
      prompt: "A lighthouse at dusk",
      seconds: "2" as OpenAI.VideoSeconds,
      size: "320x240" as OpenAI.VideoSize,
    });
    expect(created).toMatchObject({
      object: "video",
      status: "queued",
      model: "veo-3-fast",
      progress: 0,
      seconds: "2",
      size: "320x240",
      completed_at: null,
      error: null,
    });
    expect(typeof created.created_at).toBe("number");
    expect(created).not.toHaveProperty("created");
    const seen = await pollUntilDone(openai.videos, created.id);
    const done = seen.at(-1)!;
    expect(done.status).toBe("completed");
    expect(done.progress).toBe(100);
    expect(typeof done.completed_at).toBe("number");
    expect(done).not.toHaveProperty("usage");
    const statuses = new Set(seen.map((job) => job.status));
    for (const status of statuses) expect(["queued", "in_progress", "completed"]).toContain(status);
    const progress = seen.map((job) => job.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const content = await openai.videos.downloadContent(created.id);
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(bytes.toString("ascii", 4, 8)).toBe("ftyp");
  });

  it("uploads input_reference as a file the simulator records byte for byte", async () => {
    const png = makePng(64, 36, [200, 80, 20]);
    const created = await openai.videos.create({
      model: "sora-2",
      prompt: "An orange sky",
      seconds: "4",
      size: "640x360" as OpenAI.VideoSize,
      input_reference: await OpenAI.toFile(png, "sky.png", { type: "image/png" }),
    });
    const received = simulator.videoRequests().at(-1)!;
    expect(received).toMatchObject({
      contentType: "multipart/form-data",
      fields: { model: "sora-2", prompt: "An orange sky", seconds: "4", size: "640x360" },
      files: [
        {
          field: "input_reference",
          filename: "sky.png",
          contentType: "image/png",
          bytes: png.length,
          sha256: createHash("sha256").update(png).digest("hex"),
        },
      ],
      status: 200,
    });
    expect((await pollUntilDone(openai.videos, created.id)).at(-1)?.status).toBe("completed");
    const content = await openai.videos.downloadContent(created.id);
    expect(Buffer.from(await content.arrayBuffer()).toString("ascii", 4, 8)).toBe("ftyp");
    // Credits are charged by the profile's price (10 + 2 × 4), though the answer shows none.
    await vi.waitFor(() => expect(simulator.stats().creditsCharged).toBe(5 * 2 + 10 + 2 * 4));
  });

  it("refuses what the profile refuses, as the SDK's BadRequestError naming the field", async () => {
    const refused = async (params: OpenAI.VideoCreateParams) => {
      const error = await openai.videos.create(params).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      return error as InstanceType<typeof OpenAI.BadRequestError>;
    };
    const seconds = await refused({
      model: "sora-2",
      prompt: "x",
      seconds: "6" as OpenAI.VideoSeconds,
    });
    expect(seconds.param).toBe("seconds");
    expect(seconds.message).toContain("one of 4, 8 or 12 seconds");
    const image = await refused({
      model: "veo-3-fast",
      prompt: "x",
      input_reference: await OpenAI.toFile(makePng(4, 4), "a.png", { type: "image/png" }),
    });
    expect(image.param).toBe("input_reference");
    expect(image.code).toBe("image_not_supported");
    const size = await refused({
      model: "veo-3-fast",
      prompt: "x",
      size: "1920x1080" as OpenAI.VideoSize,
    });
    expect(size.param).toBe("size");
    expect(simulator.videoRequests().at(-1)?.status).toBe(400);
  });

  it("answers chat with the profile's capabilities", async () => {
    const reply = await openai.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Name a colour." }],
    });
    expect(reply.choices[0]?.finish_reason).toBe("stop");
    const error = await openai.chat.completions
      .create({
        model: "gpt-4o-mini",
        messages: [
          {
            role: "user",
            content: [
              {
                type: "image_url",
                image_url: { url: `data:image/png;base64,${makePng(2, 2).toString("base64")}` },
              },
            ],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  });
});
