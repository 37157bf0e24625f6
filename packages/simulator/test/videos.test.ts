import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { longestSeconds } from "@reelsmith/core/catalog";
import { probe, thumbnail } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { videoModels } from "../src/catalog-entry.js";
import { type Simulator, startSimulator, videoCredits } from "../src/index.js";
import { call, makePng, waitForJob } from "./helpers.js";

type Job = Record<string, unknown> & { id: string; status: string };

async function submit(
  simulator: Simulator,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const response = await call(simulator, "/v1/videos", { body, headers });
  return { response, job: (await response.json()) as Job };
}

/** The colour of the bottom-left pixel of a 24-bit BMP. */
function bmpCornerPixel(bmp: Buffer): [number, number, number] {
  const offset = bmp.readUInt32LE(10);
  return [bmp[offset + 2] ?? 0, bmp[offset + 1] ?? 0, bmp[offset] ?? 0];
}

describe("video jobs", () => {
  let simulator: Simulator;
  let directory: string;
  beforeAll(async () => {
    simulator = await startSimulator({ timeScale: 0.1, renderConcurrency: 2 });
    directory = await mkdtemp(path.join(tmpdir(), "simulator-videos-"));
  });
  afterAll(async () => {
    await simulator.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("rejects out-of-range seconds and sizes of each model at submission, naming the field", async () => {
    for (const model of videoModels) {
      const tooLong = await submit(simulator, {
        model: model.id,
        prompt: "x",
        seconds: String(longestSeconds(model.seconds!) + 1),
      });
      expect(tooLong.response.status).toBe(400);
      expect(tooLong.job).toMatchObject({
        error: { param: "seconds", type: "invalid_request_error" },
      });
      expect((tooLong.job.error as { message: string }).message).toContain(
        String(longestSeconds(model.seconds!)),
      );
      const wrongSize = await submit(simulator, {
        model: model.id,
        prompt: "x",
        seconds: "1",
        size: "333x333",
      });
      expect(wrongSize.response.status).toBe(400);
      expect(wrongSize.job).toMatchObject({ error: { param: "size" } });
    }
    expect(
      (await submit(simulator, { model: "reel-video-2-lite", prompt: "x", size: "1920x1080" })).job,
    ).toMatchObject({ error: { param: "size" } });
    expect((await submit(simulator, { model: "reel-video-9", prompt: "x" })).job).toMatchObject({
      error: { param: "model", code: "model_not_found" },
    });
    expect((await submit(simulator, { model: "reel-video-1", prompt: "" })).job).toMatchObject({
      error: { param: "prompt" },
    });
    expect(
      (await submit(simulator, { model: "reel-video-1", prompt: "x", seconds: "0" })).job,
    ).toMatchObject({ error: { param: "seconds" } });
    expect(
      (await submit(simulator, { model: "reel-video-1", prompt: "x", image_url: "ftp://a/b.png" }))
        .job,
    ).toMatchObject({ error: { param: "image_url" } });
    expect(simulator.stats().videoJobs.created).toBe(0);
  });

  it("answers 409 to a download before completion", async () => {
    const slow = await startSimulator({ timeScale: 1 });
    try {
      const { job } = await submit(slow, {
        model: "reel-video-3-long",
        prompt: "A long take",
        seconds: "20",
      });
      const early = await call(slow, `/v1/videos/${job.id}/content`);
      expect(early.status).toBe(409);
      expect(((await early.json()) as { error: { code: string } }).error.code).toBe(
        "video_not_ready",
      );
    } finally {
      await slow.close();
    }
  });

  it("goes pending → processing → completed with poll hints, then serves a real MP4", async () => {
    const { response, job } = await submit(simulator, {
      model: "reel-video-2-lite",
      prompt: "A paper boat on a river",
      seconds: "4",
      size: "854x480",
    });
    expect(response.status).toBe(200);
    expect(job).toMatchObject({
      object: "video",
      status: "pending",
      model: "reel-video-2-lite",
      prompt: "A paper boat on a river",
      created: expect.any(Number),
    });
    expect(Number(response.headers.get("openai-poll-after-ms"))).toBeGreaterThan(0);

    const seen: string[] = ["pending"];
    let final: Job;
    for (;;) {
      const poll = await call(simulator, `/v1/videos/${job.id}`);
      final = (await poll.json()) as Job;
      if (seen.at(-1) !== final.status) seen.push(final.status);
      if (final.status === "completed") {
        expect(poll.headers.get("openai-poll-after-ms")).toBeNull();
        break;
      }
      expect(Number(poll.headers.get("openai-poll-after-ms"))).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen).toEqual(["pending", "processing", "completed"]);
    expect(final).toMatchObject({
      duration: 4,
      completed_at: expect.any(Number),
      video_url: `${simulator.url}/v1/videos/${job.id}/content`,
      usage: { total_credits: videoCredits(4, 854, 480) },
    });
    expect(videoCredits(4, 854, 480)).toBe(17);

    const content = await call(simulator, `/v1/videos/${job.id}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("video/mp4");
    const file = path.join(directory, "boat.mp4");
    await writeFile(file, Buffer.from(await content.arrayBuffer()));
    const info = await probe(file);
    expect(info).toMatchObject({
      width: 854,
      height: 480,
      videoCodec: "h264",
      audioCodec: "aac",
      hasAudio: true,
    });
    expect(Math.abs(info.duration - 4)).toBeLessThan(0.1);
  });

  it("uses a data-URI reference image as the background (image-to-video)", async () => {
    const png = makePng(64, 36, [220, 20, 20]);
    const { job } = await submit(simulator, {
      model: "reel-video-1",
      prompt: "The red wall",
      seconds: "1",
      size: "1280x720",
      image_url: `data:image/png;base64,${png.toString("base64")}`,
    });
    await waitForJob(simulator, job.id);
    const file = path.join(directory, "red.mp4");
    await writeFile(
      file,
      Buffer.from(await (await call(simulator, `/v1/videos/${job.id}/content`)).arrayBuffer()),
    );
    const frame = path.join(directory, "red.bmp");
    await thumbnail(file, { output: frame, at: 0.5, width: 64 });
    const [red, green, blue] = bmpCornerPixel(await readFile(frame));
    expect(red).toBeGreaterThan(170);
    expect(green).toBeLessThan(70);
    expect(blue).toBeLessThan(70);
  });

  it("honours Idempotency-Key: same key → same job and one charge; another body → 409", async () => {
    const before = simulator.stats();
    const body = { model: "reel-video-1", prompt: "A kite over dunes", seconds: "1" };
    const first = await submit(simulator, body, { "idempotency-key": "kite-1" });
    const second = await submit(simulator, body, { "idempotency-key": "kite-1" });
    expect(second.job.id).toBe(first.job.id);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    const other = await submit(
      simulator,
      { ...body, prompt: "Another kite" },
      { "idempotency-key": "kite-1" },
    );
    expect(other.response.status).toBe(409);
    expect(other.job).toMatchObject({ error: { code: "idempotency_key_reused" } });
    const done = await waitForJob(simulator, first.job.id);
    const third = await submit(simulator, body, { "idempotency-key": "kite-1" });
    expect(third.job).toMatchObject({ id: first.job.id, status: "completed" });
    const after = simulator.stats();
    expect(after.videoJobs.created - before.videoJobs.created).toBe(1);
    expect(after.creditsCharged - before.creditsCharged).toBe(
      (done.usage as { total_credits: number }).total_credits,
    );
  });

  it("renders lazily, once per job, at most renderConcurrency at a time", async () => {
    const jobs = await Promise.all(
      Array.from(
        { length: 5 },
        async (_, index) =>
          (
            await submit(simulator, {
              model: "reel-video-2-lite",
              prompt: `Clip ${index}`,
              seconds: "1",
              size: "480x854",
            })
          ).job,
      ),
    );
    await Promise.all(jobs.map((job) => waitForJob(simulator, job.id)));
    const rendered = simulator.stats().clipsRendered;
    const sizes = await Promise.all(
      [...jobs, jobs[0]!].map(
        async (job) =>
          (await (await call(simulator, `/v1/videos/${job.id}/content`)).arrayBuffer()).byteLength,
      ),
    );
    expect(sizes.every((size) => size > 1000)).toBe(true);
    const stats = simulator.stats();
    expect(stats.clipsRendered - rendered).toBe(5);
    expect(stats.peakConcurrentRenders).toBe(2);
  });
});
