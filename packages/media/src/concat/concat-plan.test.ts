import { describe, expect, it } from "vitest";
import type { MediaInfo } from "../probe/probe.js";
import { planConcat } from "./concat-plan.js";

function info(overrides: Partial<MediaInfo> = {}): MediaInfo {
  const base: MediaInfo = {
    duration: 2,
    width: 1280,
    height: 720,
    fps: 24,
    sar: "1:1",
    pixelFormat: "yuv420p",
    videoCodec: "h264",
    audioCodec: "aac",
    hasAudio: true,
    sampleRate: 48000,
    channels: 2,
    hasVideo: true,
    audioStreams: 1,
    subtitleStreams: 0,
    frameRate: "24/1",
    averageFrameRate: "24/1",
    videoStart: 0,
    videoDuration: 2,
    audioDuration: 2,
    signature: {
      video: "h264|High|31|1280|720|1:1|yuv420p|24/1|1/12288|progressive|CRC32:1",
      audio: "aac|LC|48000|2|stereo|CRC32:2",
    },
  };
  return { ...base, ...overrides };
}

describe("planConcat", () => {
  it("copies identical clips and sums their durations", () => {
    const plan = planConcat([info(), info(), info({ videoDuration: 3, audioDuration: 3.02 })], {});
    expect(plan.method).toBe("copy");
    expect(plan.expectedDuration).toBe(7);
    expect(plan.target).toEqual({ width: 1280, height: 720, rate: "24/1" });
  });

  it.each([
    [
      "a silent clip",
      info({
        hasAudio: false,
        audioCodec: null,
        signature: { video: info().signature.video, audio: "" },
      }),
      /no audio/,
    ],
    ["another size", info({ width: 640, height: 360 }), /640x360/],
    ["another rate", info({ frameRate: "30/1", averageFrameRate: "30/1" }), /30\/1/],
    ["a variable rate", info({ averageFrameRate: "2400/101" }), /variable/],
    [
      "other encoder parameters",
      info({
        signature: {
          video: "h264|Main|31|1280|720|1:1|yuv420p|24/1|1/12288|progressive|CRC32:9",
          audio: info().signature.audio,
        },
      }),
      /video parameters/,
    ],
    [
      "other audio layout",
      info({ signature: { video: info().signature.video, audio: "aac|LC|44100|1|mono|CRC32:3" } }),
      /audio parameters/,
    ],
    ["a VP9 clip", info({ videoCodec: "vp9" }), /not H.264/],
    [
      "audio longer than its video",
      info({ audioDuration: 2.5 }),
      /audio lasts 2.500s but video 2.000s/,
    ],
    ["audio shorter than its video", info({ audioDuration: 1.2 }), /audio lasts 1.200s/],
  ])("normalises when one clip has %s", (_name, odd, reason) => {
    const plan = planConcat([info(), odd], {});
    expect(plan.method).toBe("normalize");
    expect(plan.reasons.join("; ")).toMatch(reason);
  });

  it("targets the first clip's size and the highest rate unless told otherwise", () => {
    const mixed = [
      info({ width: 640, height: 360 }),
      info({ frameRate: "30/1", averageFrameRate: "30/1" }),
    ];
    expect(planConcat(mixed, {}).target).toEqual({ width: 640, height: 360, rate: "30/1" });
    expect(planConcat(mixed, { size: "1080x1920", fps: 25 }).target).toEqual({
      width: 1080,
      height: 1920,
      rate: "25",
    });
  });

  it("targets a variable-rate clip's average rate, not its 90000/1 timebase", () => {
    const phone = info({ frameRate: "90000/1", averageFrameRate: "2997/100" });
    const plan = planConcat([info(), phone], {});
    expect(plan.method).toBe("normalize");
    expect(plan.target.rate).toBe("30000/1001");
  });

  it("normalises identical clips when another size is asked for", () => {
    expect(planConcat([info(), info()], { size: "640x360" }).method).toBe("normalize");
  });

  it("plans transitions with the overlap taken off the total", () => {
    const plan = planConcat([info(), info(), info()], { transition: { duration: 0.5 } });
    expect(plan.method).toBe("xfade");
    expect(plan.expectedDuration).toBe(5);
  });
});
