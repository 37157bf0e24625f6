import { writeFile } from "node:fs/promises";
import path from "node:path";
import { concatListLine } from "../filters/escape.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import type { CommandListener } from "../options.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";

/**
 * Join clips that share every stream parameter with the concat demuxer and stream copy.
 * The list file lives in `scratch`; paths are absolute and escaped for the list format.
 * Each entry carries its clip's video start (`inpoint`) and duration: without them the
 * demuxer starts a clip at its earliest packet (the AAC priming frame, 21 ms before the
 * video) and advances by the container duration, which includes the AAC encoder's
 * trailing frame. The resulting ~21 ms gaps in the video make the output's frame rate
 * irregular (seen with ffmpeg 4.1 and 5.1) and the output longer than the clips.
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
    /** Where each clip's video starts (its `inpoint`); default 0. */
    starts?: readonly number[] | undefined;
    signal?: AbortSignal | undefined;
    stallTimeoutMs?: number | undefined;
    onCommand?: CommandListener | undefined;
    onProgressLine?: (line: string) => void;
  },
): Promise<string[]> {
  const list = path.join(options.scratch, "concat-list.txt");
  const lines = clips.map((clip, index) => {
    const seconds = options.durations[index];
    const start = options.starts?.[index] ?? 0;
    const entry = [concatListLine(path.resolve(clip)), `inpoint ${start.toFixed(6)}`];
    if (seconds !== undefined) entry.push(`duration ${seconds.toFixed(6)}`);
    return entry.join("\n");
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
    onCommand: options.onCommand,
  });
  return args;
}
