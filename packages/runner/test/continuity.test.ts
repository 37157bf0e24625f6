import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probe, readSrtFile } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The bytes of a `data:` URI (what the service received as the reference image). */
function dataUriBytes(uri: unknown): Buffer {
  const match = /^data:image\/png;base64,(.+)$/s.exec(String(uri));
  if (!match?.[1]) throw new Error(`not a PNG data URI: ${String(uri).slice(0, 40)}`);
  return Buffer.from(match[1], "base64");
}

const pipelineText = `name: continuity
defaults:
  video: { model: reel-video-2-lite, size: 720x480 }
steps:
  - id: clips
    for_each:
      - { prompt: dawn on a lake, seconds: 1 }
      - { prompt: a boat drifts, seconds: 2 }
      - { prompt: night falls, seconds: 1 }
    sequential: true
    video:
      prompt: "\${{ item.prompt }}"
      seconds: \${{ item.seconds }}
      image: \${{ previous && previous.outputs.last_frame }}
      output: clips/scene-\${{ index }}.mp4
      last_frame_output: frames/scene-\${{ index }}-last.png
  - id: last
    ffmpeg:
      frame: \${{ steps.clips.outputs[2].file }}
      at: last
      output: stills/last.png
  - id: first
    ffmpeg:
      frame: \${{ steps.clips.outputs[1].file }}
      at: first
      output: stills/first.png
outputs:
  frames: \${{ steps.clips.outputs.*.last_frame }}
`;

describe("continuity: each clip starts from the last frame of the one before", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("sends the previous clip's extracted last frame, byte for byte, as each next clip's image", async () => {
    const dir = join(service.root, "continuity");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "pipeline.yaml"), pipelineText);
    const options = service.options({ cache: false });
    const result = await runPipeline(join(dir, "pipeline.yaml"), options);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");

    const clips = result.steps.clips?.outputs as { file: string; last_frame: string }[];
    const frames = [0, 1, 2].map((i) => join(result.runDir, "frames", `scene-${i}-last.png`));
    expect(clips.map((clip) => clip.last_frame)).toEqual(frames);
    expect(result.outputs.frames).toEqual(frames);
    for (const [i, frame] of frames.entries()) {
      const bytes = readFileSync(frame);
      expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
      const [clipInfo, frameInfo] = await Promise.all([probe(clips[i]!.file), probe(frame)]);
      expect([frameInfo.width, frameInfo.height]).toEqual([clipInfo.width, clipInfo.height]);
    }

    // What the service received, in the order it received it: no image for the first clip,
    // then exactly the PNG extracted from the clip before.
    const requests = service.simulator.videoRequests();
    expect(requests).toHaveLength(3);
    expect(requests.map((request) => request.fields.prompt)).toEqual([
      "dawn on a lake",
      "a boat drifts",
      "night falls",
    ]);
    expect(requests[0]?.fields.image_url).toBeUndefined();
    for (const i of [1, 2]) {
      const received = sha256(dataUriBytes(requests[i]?.fields.image_url));
      expect(received).toBe(sha256(readFileSync(frames[i - 1]!)));
    }
    // The frames differ from one clip to the next (three different PNGs were sent or kept).
    expect(new Set(frames.map((frame) => sha256(readFileSync(frame)))).size).toBe(3);

    // Each clip was submitted only after the one before it was downloaded.
    const seqOf = (stage: string, index: number) =>
      options.events.find(
        (e) => e.type === "unit.progress" && e.stage === stage && e.index === index,
      )?.seq ?? -1;
    for (const i of [1, 2]) {
      expect(seqOf("saved", i - 1)).toBeGreaterThan(0);
      expect(seqOf("submitted", i)).toBeGreaterThan(seqOf("saved", i - 1));
    }

    // The ffmpeg kind's `frame` takes the same last frame as the video step saved, and the
    // first frame of a clip is another picture of the clip's size.
    const still = String(((result.steps.last?.outputs ?? {}) as { file: string }).file);
    expect(still).toBe(join(result.runDir, "stills", "last.png"));
    expect(sha256(readFileSync(still))).toBe(sha256(readFileSync(frames[2]!)));
    const first = String(((result.steps.first?.outputs ?? {}) as { file: string }).file);
    expect(sha256(readFileSync(first))).not.toBe(sha256(readFileSync(frames[1]!)));
    expect((await probe(first)).width).toBe(720);

    // Resume after the first clip's last frame was deleted: that clip is made again from its
    // journaled job (not paid again), and so is every clip after it, in order.
    const before = frames.map((frame) => sha256(readFileSync(frame)));
    rmSync(frames[0]!);
    const resumeOptions = service.options({ cache: false, resume: result.runDir });
    const resumed = await runPipeline(undefined, resumeOptions);
    expect(resumed.error).toBeUndefined();
    expect(resumed.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(3);
    const ends = resumeOptions.events.filter((e) => e.type === "item.end" && e.step === "clips");
    expect(ends.map((e) => (e.type === "item.end" ? [e.index, e.status] : []))).toEqual([
      [0, "succeeded"],
      [1, "succeeded"],
      [2, "succeeded"],
    ]);
    expect(frames.map((frame) => sha256(readFileSync(frame)))).toEqual(before);
  });

  it("runs the storyboard's continuity example: chained clips, crossfaded, captioned, its last frame", async () => {
    const example = join(import.meta.dirname, "../../../examples/storyboard/continuity.yaml");
    const before = service.simulator.videoRequests().length;
    const result = await runPipeline(
      example,
      service.options({ cache: false, inputs: { scenes: 3 } }),
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const requests = service.simulator.videoRequests().slice(before);
    expect(requests).toHaveLength(3);
    expect(requests[0]?.fields.image_url).toBeUndefined();
    for (const i of [1, 2]) {
      const frame = join(result.runDir, "frames", `scene-${i - 1}-last.png`);
      expect(sha256(dataUriBytes(requests[i]?.fields.image_url))).toBe(sha256(readFileSync(frame)));
    }
    const scenes = (
      (result.steps.storyboard?.outputs ?? {}) as { json: { scenes: { description: string }[] } }
    ).json.scenes;
    const cues = await readSrtFile(String(result.outputs.captions));
    // Wrapped at the style's 48 columns.
    expect(cues.every((cue) => cue.text.split("\n").every((line) => line.length <= 48))).toBe(true);
    expect(cues.map((cue) => cue.text.replace(/\n/g, " "))).toEqual(
      scenes.map((scene) => scene.description),
    );
    const video = await probe(String(result.outputs.video));
    expect(Math.abs((cues.at(-1)?.end ?? 0) - (video.videoDuration ?? 0))).toBeLessThan(0.05);
    expect((await probe(String(result.outputs.last_frame))).width).toBe(854);
  });

  it("reuses every clip of a resumed run whose files are intact, without asking the service", async () => {
    const dir = join(service.root, "continuity-intact");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "pipeline.yaml"), pipelineText);
    const first = await runPipeline(join(dir, "pipeline.yaml"), service.options({ cache: false }));
    expect(first.status).toBe("succeeded");
    const requests = service.simulator.videoRequests().length;
    // The last step's output is gone: only it runs again.
    rmSync(join(first.runDir, "stills", "first.png"));
    const options = service.options({ cache: false, resume: first.runDir });
    const resumed = await runPipeline(undefined, options);
    expect(resumed.status).toBe("succeeded");
    expect(service.simulator.videoRequests()).toHaveLength(requests);
    const reused = options.events.filter((e) => e.type === "step.end" && e.reused);
    expect(reused.map((e) => (e.type === "step.end" ? e.step : ""))).toEqual(["clips", "last"]);
  });
});
