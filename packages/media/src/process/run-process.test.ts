import { describe, expect, it } from "vitest";
import { FfmpegError } from "../errors/ffmpeg-error.js";
import { MediaAbortError } from "../errors/media-abort-error.js";
import { locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { runProcess } from "./run-process.js";

describe("runProcess", () => {
  it("rejects with exit code, stderr tail and argv when ffmpeg fails", async () => {
    const tools = await locateFfmpeg();
    const args = ["-hide_banner", "-i", "/nonexistent/in put.mp4", "-f", "null", "-"];
    const error = await runProcess(tools.ffmpeg.path, args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FfmpegError);
    const failure = error as FfmpegError;
    expect(failure.code).toBe("ffmpeg_failed");
    expect(failure.exitCode).toBe(1);
    expect(failure.stderrTail).toMatch(/No such file or directory/);
    expect(failure.args).toEqual(args);
    expect(JSON.parse(JSON.stringify(failure))).toMatchObject({
      code: "ffmpeg_failed",
      exitCode: 1,
    });
  });

  it("passes arguments without a shell", async () => {
    const { stdout } = await runProcess(process.execPath, [
      "-e",
      "console.log(process.argv[1])",
      "$(echo hi); `x` 'y'",
    ]);
    expect(stdout.trim()).toBe("$(echo hi); `x` 'y'");
  });

  it("kills the process on abort", async () => {
    const controller = new AbortController();
    const pending = runProcess(
      process.execPath,
      ["-e", "setTimeout(() => {}, 60000); console.log('started')"],
      {
        signal: controller.signal,
        onStdoutLine: () => controller.abort(new Error("stop")),
      },
    );
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MediaAbortError);
    expect((error as MediaAbortError).cause).toEqual(new Error("stop"));
  });

  it("reports a binary that cannot be started", async () => {
    await expect(runProcess("/nonexistent/ffmpeg", [])).rejects.toBeInstanceOf(FfmpegError);
  });
});
