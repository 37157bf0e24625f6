import { FfmpegStalledError } from "../errors/ffmpeg-stalled-error.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import { locateFfmpeg } from "../locate/locate-ffmpeg.js";
import type { CommandListener, MediaOptions } from "../options.js";
import { parseProgressTime } from "./progress.js";
import { runProcess } from "./run-process.js";

/** Arguments put in front of every ffmpeg command line (with `-v <logLevel>` after them). */
const commonArgs = ["-hide_banner", "-nostdin", "-y", "-nostats"];

/** Default for {@link MediaOptions.stallTimeoutMs}: two minutes without the output time advancing. */
export const defaultStallTimeoutMs = 120_000;

/** Options of {@link runFfmpeg}. */
export interface RunFfmpegOptions {
  signal?: AbortSignal | undefined;
  /** Each line of `-progress pipe:1` output. */
  onProgressLine?: ((line: string) => void) | undefined;
  /** Kill ffmpeg when its output time does not advance for this long (0 disables). */
  stallTimeoutMs?: number | undefined;
  /**
   * ffmpeg's log level (default `error`). `info` lets filters that report what they
   * measured (`loudnorm`, `ebur128`, `silencedetect`, `astats`) write it to the returned stderr.
   */
  logLevel?: "error" | "info";
  /** Told the command line before the process starts. */
  onCommand?: CommandListener | undefined;
}

/**
 * Run ffmpeg with `args` (inputs, filters, output) plus a fixed prologue: no banner, no
 * stdin, overwrite, errors only on stderr (unless `logLevel` says more; stderr is returned), machine-readable progress on stdout. A process
 * whose output time stops advancing for `stallTimeoutMs` is killed ({@link FfmpegStalledError}).
 *
 * @example
 * await runFfmpeg(tools, ["-i", input, "-c", "copy", output], { signal, onProgressLine });
 */
export async function runFfmpeg(
  tools: FfmpegTools,
  args: readonly string[],
  options: RunFfmpegOptions = {},
): Promise<{ stderr: string }> {
  const level = options.logLevel ?? "error";
  const fullArgs = [...commonArgs, "-v", level, "-progress", "pipe:1", ...args];
  const stallTimeoutMs = options.stallTimeoutMs ?? defaultStallTimeoutMs;
  options.onCommand?.({ program: "ffmpeg", args: fullArgs });
  const watchdog = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, watchdog.signal])
    : watchdog.signal;
  let lastTime: number | undefined;
  let lastAdvance = Date.now();
  const onStdoutLine = (line: string) => {
    const time = parseProgressTime(line);
    if (time !== undefined && time !== lastTime) {
      lastTime = time;
      lastAdvance = Date.now();
    }
    options.onProgressLine?.(line);
  };
  const timer =
    stallTimeoutMs > 0
      ? setInterval(
          () => {
            if (Date.now() - lastAdvance > stallTimeoutMs) watchdog.abort();
          },
          Math.min(1000, stallTimeoutMs / 4),
        )
      : undefined;
  timer?.unref();
  try {
    const { stderr } = await runProcess(tools.ffmpeg.path, fullArgs, {
      signal,
      onStdoutLine,
      collectStdout: false,
    });
    return { stderr };
  } catch (error) {
    if (watchdog.signal.aborted && !options.signal?.aborted) {
      throw new FfmpegStalledError(Date.now() - lastAdvance, fullArgs);
    }
    throw error;
  } finally {
    if (timer) clearInterval(timer);
  }
}

/** The tools from the options, or the located ones. */
export function resolveTools(options: MediaOptions | undefined): Promise<FfmpegTools> {
  return options?.tools ? Promise.resolve(options.tools) : locateFfmpeg();
}
