import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FfmpegStalledError } from "../errors/ffmpeg-stalled-error.js";
import { MediaAbortError } from "../errors/media-abort-error.js";
import { locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { runFfmpeg } from "./run-ffmpeg.js";

/** A looped picture ffmpeg cannot decode: ffmpeg 4.1 and 5.1 both spin on it forever. */
async function spinningArgs(directory: string): Promise<string[]> {
  const garbage = path.join(directory, "garbage.png");
  await writeFile(garbage, "this is not a picture");
  return [
    "-f",
    "image2",
    "-loop",
    "1",
    "-framerate",
    "24",
    "-t",
    "1",
    "-i",
    garbage,
    "-f",
    "null",
    "-",
  ];
}

describe("runFfmpeg", () => {
  it("kills a process whose output time stops advancing", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "reelsmith-stall-"));
    try {
      const tools = await locateFfmpeg();
      const error = await runFfmpeg(tools, await spinningArgs(directory), {
        stallTimeoutMs: 1000,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FfmpegStalledError);
      expect((error as FfmpegStalledError).code).toBe("ffmpeg_stalled");
      expect((error as FfmpegStalledError).args).toContain("-loop");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("reports the caller's abort as an abort, not a stall", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "reelsmith-stall-"));
    try {
      const tools = await locateFfmpeg();
      const controller = new AbortController();
      const pending = runFfmpeg(tools, await spinningArgs(directory), {
        signal: controller.signal,
        stallTimeoutMs: 60_000,
      });
      setTimeout(() => controller.abort(), 200);
      await expect(pending).rejects.toBeInstanceOf(MediaAbortError);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
