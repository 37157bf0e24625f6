import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { decodeRgb, meanDifference } from "../../test/frame.js";
import { countFrames } from "../../test/measure.js";
import { type FfmpegTools, locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";
import { reframe } from "./reframe.js";
import { reframeFilter } from "./reframe-graph.js";

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
let tools: FfmpegTools;
let film: string;

beforeAll(async () => {
  tools = await locateFfmpeg();
  film = file("wide.mp4");
  // 16:9, 1.25 s at 24 fps, a colourful moving pattern and a tone.
  await runFfmpeg(tools, [
    ...["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=24:duration=1.25"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1.25"],
    ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", film],
  ]);
});

/** Mean of each channel of raw RGB pixels. */
function meanColour(pixels: Buffer): [number, number, number] {
  const sum = [0, 0, 0];
  for (let index = 0; index < pixels.length; index++)
    sum[index % 3] = (sum[index % 3] ?? 0) + (pixels[index] ?? 0);
  const count = pixels.length / 3;
  return [(sum[0] ?? 0) / count, (sum[1] ?? 0) / count, (sum[2] ?? 0) / count];
}

describe("reframeFilter", () => {
  it("crops around the centre, or fits the picture over a blurred fill", () => {
    expect(reframeFilter({ width: 180, height: 320, mode: "crop" })).toBe(
      "[0:v:0]scale=180:320:force_original_aspect_ratio=increase,crop=180:320,setsar=1,format=yuv420p[v]",
    );
    const padded = reframeFilter({ width: 180, height: 320, mode: "blur-pad", blur: 8 });
    expect(padded).toContain(
      "[back]scale=180:320:force_original_aspect_ratio=increase,crop=180:320,gblur=sigma=8[blurred]",
    );
    expect(padded).toContain(
      "[blurred][fitted]overlay=x=(W-w)/2:y=(H-h)/2,setsar=1,format=yuv420p[v]",
    );
  });
});

describe("reframe", () => {
  it.each(["crop", "blur-pad"] as const)(
    "%s: the asked size, every frame of the source, the sound kept",
    async (mode) => {
      const { output } = await reframe(film, {
        output: file(`${mode}.mp4`),
        width: 180,
        height: 320,
        mode,
      });
      const info = await probe(output);
      expect([info.width, info.height]).toEqual([180, 320]);
      expect(await countFrames(tools, output)).toBe(await countFrames(tools, film));
      expect(info.hasAudio).toBe(true);
    },
  );

  it("blur-pad shows the whole picture in the middle and no black bars", async () => {
    const { output } = await reframe(film, {
      output: file("padded.mp4"),
      width: 180,
      height: 320,
      mode: "blur-pad",
    });
    // The picture fitted to 180 wide is 180×100, centred: rows 110 to 209.
    const middle = await decodeRgb(tools, output, 0.5, file("middle.rgb"), { y: 110, height: 100 });
    await runFfmpeg(tools, [
      ...["-ss", "0.5", "-i", film, "-frames:v", "1", "-vf", "scale=180:100"],
      ...["-f", "rawvideo", "-pix_fmt", "rgb24", file("source.rgb")],
    ]);
    const difference = meanDifference(middle, await readFile(file("source.rgb")));
    expect(difference).toBeLessThan(8);
    // The blurred fill around it is not the picture itself: it differs from the sharp source.
    const top = await decodeRgb(tools, output, 0.5, file("top.rgb"), { y: 10, height: 100 });
    expect(meanDifference(top, await readFile(file("source.rgb")))).toBeGreaterThan(30);
    for (const y of [0, 230]) {
      const bar = await decodeRgb(tools, output, 0.5, file(`bar-${y}.rgb`), { y, height: 90 });
      const [red, green, blue] = meanColour(bar);
      expect(Math.max(red, green, blue)).toBeGreaterThan(40);
    }
  });
});
