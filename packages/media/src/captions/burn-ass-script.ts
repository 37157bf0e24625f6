import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { videoEncoderArgsFor } from "../edit/video-encoder-args.js";
import { escapeFilterValue } from "../filters/escape.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import type { MediaOptions } from "../options.js";
import type { MediaInfo } from "../probe/probe.js";
import { render } from "../process/render.js";
import { withScratchDirectory } from "../process/temp-output.js";
import type { CaptionFont } from "./caption-fonts.js";

/** What {@link burnAssScript} burns. */
export interface BurnAssScriptJob {
  tools: FfmpegTools;
  /** The video (absolute path) and what probe said of it. */
  source: string;
  info: MediaInfo;
  /** The ASS script's text. */
  script: string;
  /** The fonts the script names, given to libass as files (no system font is used). */
  fonts: readonly CaptionFont[];
  output: string;
}

/**
 * Draw an ASS script into a video through libass with exactly the given fonts; the sound
 * is copied. The script and fonts live in a scratch directory removed afterwards.
 *
 * @example
 * await burnAssScript({ tools, source, info, script: text, fonts, output: "captioned.mp4" }, options);
 */
export async function burnAssScript(
  job: BurnAssScriptJob,
  options: MediaOptions,
): Promise<{ output: string; info: MediaInfo }> {
  const { info, source } = job;
  const destination = path.resolve(job.output);
  return withScratchDirectory(destination, async (scratch) => {
    const filter = await assFilter(scratch, job.script, job.fonts);
    const audio = info.hasAudio ? ["-map", "0:a:0", "-c:a", "copy"] : [];
    return render(
      {
        tools: job.tools,
        output: destination,
        seconds: info.duration,
        args: (temp) => [
          ...[
            "-i",
            source,
            "-map",
            "0:v:0",
            ...audio,
            "-vf",
            filter,
            ...videoEncoderArgsFor(options),
          ],
          ...["-movflags", "+faststart", temp],
        ],
        expect: {
          duration: info.duration,
          tolerance: 0.1,
          audio: info.hasAudio,
          width: info.width,
          height: info.height,
        },
      },
      options,
    );
  });
}

/**
 * The `subtitles` filter that draws `script` with exactly `fonts`: both written into
 * `scratch` (a directory of the caller's, removed once ffmpeg is done).
 * @example const filter = await assFilter(scratch, text, fonts); // "subtitles=filename=…:fontsdir=…"
 */
export async function assFilter(
  scratch: string,
  script: string,
  fonts: readonly CaptionFont[],
): Promise<string> {
  const fontsDirectory = path.join(scratch, "fonts");
  await mkdir(fontsDirectory);
  await Promise.all(
    fonts.map((font, index) =>
      writeFile(path.join(fontsDirectory, `${index}${path.extname(font.file)}`), font.bytes),
    ),
  );
  const file = path.join(scratch, "captions.ass");
  await writeFile(file, script, "utf8");
  return [
    `subtitles=filename=${escapeFilterValue(file)}`,
    `fontsdir=${escapeFilterValue(fontsDirectory)}`,
  ].join(":");
}

/**
 * Fonts with a family already listed could never be chosen by name: keep the first.
 *
 * @example
 * distinctFamilies([dejaVu, dejaVuAgain, noto]); // [dejaVu, noto]
 */
export function distinctFamilies(fonts: readonly CaptionFont[]): CaptionFont[] {
  const seen = new Set<string>();
  return fonts.filter((font) => {
    const key = font.family.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
