import path from "node:path";
import { escapeFilterValue } from "../filters/escape.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { render } from "../process/render.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { videoEncoderArgsFor } from "./video-encoder-args.js";

/** Options of {@link subtitles}. */
export interface SubtitlesOptions extends MediaOptions {
  output: string;
  /** An SRT or ASS file. */
  file: string;
  /** `burn` (default) draws them into the picture; `soft` adds a selectable subtitle track. */
  mode?: "burn" | "soft";
}

/**
 * Burn subtitles into the picture (with the bundled font, so it works without system fonts)
 * or add them as a soft track (`mov_text` in MP4/MOV, copied into MKV).
 *
 * @example
 * await subtitles("final.mp4", { output: "final-subbed.mp4", file: "captions.srt", mode: "burn" });
 */
export async function subtitles(
  input: string,
  options: SubtitlesOptions,
): Promise<{ output: string; info: MediaInfo }> {
  const mode = options.mode ?? "burn";
  if (mode !== "burn" && mode !== "soft")
    throw new TypeError(`Expected \`mode\` to be burn or soft; got ${String(mode)}`);
  const tools = await resolveTools(options);
  const source = path.resolve(input);
  const subtitleFile = path.resolve(options.file);
  const info = await probe(source, { tools, signal: options.signal });
  const seconds = info.duration;
  const audio = info.hasAudio ? ["-map", "0:a:0", "-c:a", "copy"] : [];
  let args: (temp: string) => string[];
  if (mode === "burn") {
    requireCapabilities(tools, ["subtitles", "libx264"]);
    const filter = [
      `subtitles=filename=${escapeFilterValue(subtitleFile)}`,
      `fontsdir=${escapeFilterValue(path.dirname(tools.fontFile))}`,
      `force_style=${escapeFilterValue("FontName=DejaVu Sans")}`,
    ].join(":");
    args = (temp) => [
      "-i",
      source,
      "-map",
      "0:v:0",
      ...audio,
      "-vf",
      filter,
      ...videoEncoderArgsFor(options),
      "-movflags",
      "+faststart",
      temp,
    ];
  } else {
    const extension = path.extname(options.output).toLowerCase();
    const codec = [".mp4", ".m4v", ".mov"].includes(extension)
      ? "mov_text"
      : extension === ".mkv"
        ? "copy"
        : undefined;
    if (!codec)
      throw new TypeError(
        `Soft subtitles need an .mp4, .m4v, .mov or .mkv output; got ${options.output}`,
      );
    args = (temp) => [
      "-i",
      source,
      "-i",
      subtitleFile,
      "-map",
      "0:v:0",
      ...audio,
      "-map",
      "1:s:0",
      "-c:v",
      "copy",
      "-c:s",
      codec,
      temp,
    ];
  }
  return render(
    {
      tools,
      output: options.output,
      seconds,
      args,
      expect: {
        duration: seconds,
        tolerance: 0.1,
        audio: info.hasAudio,
        subtitles: mode === "soft",
        width: info.width,
        height: info.height,
      },
    },
    options,
  );
}
