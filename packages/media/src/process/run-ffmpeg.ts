import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import { locateFfmpeg } from "../locate/locate-ffmpeg.js";
import type { MediaOptions } from "../options.js";
import { runProcess } from "./run-process.js";

/** Arguments put in front of every ffmpeg command line. */
const commonArgs = ["-hide_banner", "-nostdin", "-y", "-v", "error", "-nostats"];

/**
 * Run ffmpeg with `args` (inputs, filters, output) plus a fixed prologue: no banner, no
 * stdin, overwrite, errors only on stderr, machine-readable progress on stdout.
 *
 * @example
 * await runFfmpeg(tools, ["-i", input, "-c", "copy", output], { signal, onProgressLine });
 */
export async function runFfmpeg(
  tools: FfmpegTools,
  args: readonly string[],
  options: { signal?: AbortSignal | undefined; onProgressLine?: (line: string) => void } = {},
): Promise<void> {
  await runProcess(tools.ffmpeg.path, [...commonArgs, "-progress", "pipe:1", ...args], {
    signal: options.signal,
    onStdoutLine: options.onProgressLine,
    collectStdout: false,
  });
}

/** The tools from the options, or the located ones. */
export function resolveTools(options: MediaOptions | undefined): Promise<FfmpegTools> {
  return options?.tools ? Promise.resolve(options.tools) : locateFfmpeg();
}
