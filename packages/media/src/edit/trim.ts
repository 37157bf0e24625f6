import path from "node:path";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { render } from "../process/render.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { audioEncoderArgs, requirePositive, videoEncoderArgsFor } from "./video-encoder-args.js";

/** Options of {@link trim}. */
export interface TrimOptions extends MediaOptions {
  output: string;
  /** Start in seconds (default 0). */
  start?: number;
  /** End in seconds (default: the end of the input). Give `end` or `duration`, not both. */
  end?: number;
  /** Length in seconds from `start`. */
  duration?: number;
}

/**
 * Cut a frame-accurate section out of a clip (re-encodes, so cuts need not fall on keyframes).
 *
 * @example
 * await trim("scene.mp4", { output: "scene-cut.mp4", start: 1.5, end: 4 });
 */
export async function trim(
  input: string,
  options: TrimOptions,
): Promise<{ output: string; info: MediaInfo }> {
  const start = requirePositive("start", options.start, true) ?? 0;
  const end = requirePositive("end", options.end);
  const length = requirePositive("duration", options.duration);
  if (end !== undefined && length !== undefined)
    throw new TypeError("Give `end` or `duration`, not both");
  if (end !== undefined && end <= start)
    throw new TypeError(`Expected \`end\` (${end}) to be after \`start\` (${start})`);
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["libx264", "aac"]);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  if (start >= info.duration) {
    throw new TypeError(
      `Expected \`start\` (${start}s) to be before the end of the input (${info.duration}s)`,
    );
  }
  const stop = Math.min(
    info.duration,
    end ?? (length !== undefined ? start + length : info.duration),
  );
  const seconds = stop - start;
  const frame = info.fps > 0 ? 1 / info.fps : 0.05;
  return render(
    {
      tools,
      output: options.output,
      seconds,
      args: (temp) => [
        "-ss",
        start.toFixed(6),
        "-i",
        source,
        "-t",
        seconds.toFixed(6),
        "-map",
        "0:v:0",
        ...(info.hasAudio ? ["-map", "0:a:0"] : []),
        ...videoEncoderArgsFor(options),
        ...(info.hasAudio ? audioEncoderArgs : []),
        "-movflags",
        "+faststart",
        temp,
      ],
      expect: {
        duration: seconds,
        tolerance: 0.1 + frame,
        audio: info.hasAudio,
        width: info.width,
        height: info.height,
      },
    },
    options,
  );
}
