import type { FfmpegTools } from "../src/locate/locate-ffmpeg.js";
import { probe } from "../src/probe/probe.js";
import { runFfmpeg } from "../src/process/run-ffmpeg.js";
import { runProcess } from "../src/process/run-process.js";

/**
 * The number of video frames ffprobe decodes from `video` (not the container's claim).
 *
 * @example
 * expect(await countFrames(tools, "fitted.mp4")).toBe(60);
 */
export async function countFrames(tools: FfmpegTools, video: string): Promise<number> {
  const { stdout } = await runProcess(tools.ffprobe.path, [
    ...["-v", "error", "-count_frames", "-select_streams", "v:0"],
    ...["-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", video],
  ]);
  return Number(stdout.trim());
}

/**
 * Where sound starts after silence in `file`'s first audio track (`silencedetect`'s
 * `silence_end` times, plus 0 when the file starts with sound).
 *
 * @example
 * const starts = await soundStarts(tools, "narration.mp4"); // [0.5, 3.2]
 */
export async function soundStarts(
  tools: FfmpegTools,
  file: string,
  options: { noise?: string; minSilence?: number } = {},
): Promise<number[]> {
  const { stderr } = await runFfmpeg(
    tools,
    [
      ...["-i", file, "-map", "0:a:0", "-af"],
      `silencedetect=noise=${options.noise ?? "-40dB"}:d=${options.minSilence ?? 0.2}`,
      ...["-f", "null", "-"],
    ],
    { logLevel: "info" },
  );
  const starts = [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  const first = starts[0];
  // A silence running to the end of the file also "ends" there: that starts no sound.
  const { duration } = await probe(file, { tools });
  const sounding = ends.filter((end) => end < duration - 0.02);
  return first !== undefined && first > 0.01 ? [0, ...sounding] : sounding;
}

/**
 * The RMS level in dBFS of `file`'s first audio track between `from` and `to` seconds,
 * after an optional filter chain (e.g. `lowpass=f=400` to keep one tone of a mix).
 *
 * @example
 * const level = await rmsLevel(tools, "mix.mp4", 1.2, 1.8, "lowpass=f=400");
 */
export async function rmsLevel(
  tools: FfmpegTools,
  file: string,
  from: number,
  to: number,
  filter?: string,
): Promise<number> {
  const chain = [
    `atrim=start=${from}:end=${to}`,
    ...(filter ? [filter] : []),
    "pan=mono|c0=c0",
    "astats",
  ];
  const { stderr } = await runFfmpeg(
    tools,
    ["-i", file, "-map", "0:a:0", "-af", chain.join(","), "-f", "null", "-"],
    { logLevel: "info" },
  );
  // One mono channel: its figures and the overall ones are the same; take the last.
  const match = [...stderr.matchAll(/RMS level dB: (-?[\d.]+|-inf)/g)].pop();
  if (!match) throw new Error(`No RMS level in astats output:\n${stderr.slice(-2000)}`);
  return match[1] === "-inf" ? Number.NEGATIVE_INFINITY : Number(match[1]);
}
