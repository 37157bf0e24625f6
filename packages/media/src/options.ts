import type { FfmpegTools } from "./locate/locate-ffmpeg.js";
import type { ProgressListener } from "./process/progress.js";

/** Receives the command line of an ffmpeg process about to start. */
export type CommandListener = (command: { program: "ffmpeg"; args: readonly string[] }) => void;

/**
 * Options every operation accepts.
 *
 * @example
 * const controller = new AbortController();
 * await trim("in.mp4", { output: "out.mp4", end: 2, signal: controller.signal,
 *   onProgress: ({ percent }) => console.log(percent) });
 */
export interface MediaOptions {
  /** Cancels the operation: the ffmpeg process is killed and no output is left behind. */
  signal?: AbortSignal;
  /** Progress as a percentage of the whole output's duration. */
  onProgress?: ProgressListener;
  /**
   * Kill ffmpeg when its output time does not advance for this many milliseconds
   * (default 120 000; 0 disables). Guards against inputs ffmpeg spins on forever.
   */
  stallTimeoutMs?: number;
  /**
   * The output only feeds another ffmpeg pass (it is not a result anyone watches): its video
   * is written losslessly and fast (x264 `-qp 0`, ultrafast), so the pass that makes the
   * final is the only lossy encode. Bigger files; default false.
   */
  intermediate?: boolean;
  /** Called with each ffmpeg command line before it starts (the arguments, without the binary). */
  onCommand?: CommandListener;
  /** Binaries to use (defaults to {@link locateFfmpeg}'s result). */
  tools?: FfmpegTools;
}
