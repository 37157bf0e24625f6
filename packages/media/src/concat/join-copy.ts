import { writeFile } from "node:fs/promises";
import path from "node:path";
import { concatListLine } from "../filters/escape.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";

/**
 * Join clips that share every stream parameter with the concat demuxer and stream copy.
 * The list file lives in `scratch`; paths are absolute and escaped for the list format.
 * Each entry carries its clip's video duration: without it the demuxer advances by the
 * container duration, which includes the AAC encoder's trailing frame, leaving ~21 ms
 * gaps in the video that make the output's frame rate irregular (seen with ffmpeg 4.1 and 5.1).
 *
 * @example
 * await joinByCopy(tools, ["/a.mp4", "/b.mp4"], "/out/.tmp.mp4", { scratch, signal });
 */
export async function joinByCopy(
  tools: FfmpegTools,
  clips: readonly string[],
  output: string,
  options: {
    scratch: string;
    /** Seconds of video each clip contributes (its video stream duration). */
    durations: readonly number[];
    signal?: AbortSignal | undefined;
    stallTimeoutMs?: number | undefined;
    onProgressLine?: (line: string) => void;
  },
): Promise<string[]> {
  const list = path.join(options.scratch, "concat-list.txt");
  const lines = clips.map((clip, index) => {
    const seconds = options.durations[index];
    const entry = concatListLine(path.resolve(clip));
    return seconds === undefined ? entry : `${entry}\nduration ${seconds.toFixed(6)}`;
  });
  await writeFile(list, `${lines.join("\n")}\n`, "utf8");
  const args = [
    "-f",
    "concat",
    "-safe",
    "0",
    "-i",
    list,
    "-map",
    "0:v:0",
    "-map",
    "0:a:0",
    "-c",
    "copy",
    "-movflags",
    "+faststart",
    output,
  ];
  await runFfmpeg(tools, args, {
    signal: options.signal,
    onProgressLine: options.onProgressLine,
    stallTimeoutMs: options.stallTimeoutMs,
  });
  return args;
}
