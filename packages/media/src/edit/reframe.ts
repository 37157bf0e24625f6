import path from "node:path";
import { assFilter } from "../captions/burn-ass-script.js";
import { type WordCaptionsOptions, wordCaptionsScript } from "../captions/burn-word-captions.js";
import { verifyOutput } from "../concat/verify-output.js";
import { MediaError } from "../errors/media-error.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { nominalRate } from "../probe/nominal-rate.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { render } from "../process/render.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { withScratchDirectory, withTempOutput } from "../process/temp-output.js";
import { type ReframeMode, reframeFilter } from "./reframe-graph.js";
import { videoEncoderArgsFor } from "./video-encoder-args.js";

/** Options of {@link reframe}. */
export interface ReframeOptions extends MediaOptions {
  output: string;
  /** Output width in pixels (even). */
  width: number;
  /** Output height in pixels (even). */
  height: number;
  /** `crop` (default): fill and cut around the centre. `blur-pad`: the whole picture over a blurred fill. */
  mode?: ReframeMode;
  /** Blur strength of `blur-pad`'s background (Gaussian sigma in pixels; default 1/30 of the larger side). */
  blur?: number;
  /**
   * The reframed film with word captions burnt in, made in the same pass as a second output
   * (encoded as a final, or losslessly when its own `intermediate` says so): the same
   * picture `burnWordCaptions` would make from `output`, without decoding it again.
   */
  captioned?: WordCaptionsOptions & { output: string; intermediate?: boolean };
}

/** What {@link reframe} made: its output, and the captioned one when asked. */
export interface ReframeResult {
  output: string;
  info: MediaInfo;
  /** The `captioned` output, with the characters no font has (left out of the picture). */
  captioned?: { output: string; info: MediaInfo; missing: string[] };
}

/**
 * The same film in another aspect ratio (e.g. a 16:9 final as 9:16): centre crop, or the
 * whole picture over a blurred, scaled-to-fill copy of itself. Length, frame rate and sound
 * are kept (the sound is copied).
 *
 * @example
 * await reframe("final-16x9.mp4", { output: "final-9x16.mp4", width: 1080, height: 1920, mode: "blur-pad" });
 */
export async function reframe(input: string, options: ReframeOptions): Promise<ReframeResult> {
  for (const name of ["width", "height"] as const) {
    const value = options[name];
    if (!(Number.isInteger(value) && value > 0 && value % 2 === 0))
      throw new TypeError(
        `Expected \`${name}\` to be a positive even number of pixels; got ${value}`,
      );
  }
  const mode = options.mode ?? "crop";
  if (mode !== "crop" && mode !== "blur-pad")
    throw new TypeError(`Expected \`mode\` to be crop or blur-pad; got ${String(mode)}`);
  if (options.blur !== undefined && !(Number.isFinite(options.blur) && options.blur > 0))
    throw new TypeError(`Expected \`blur\` to be a positive number; got ${options.blur}`);
  const tools = await resolveTools(options);
  requireCapabilities(tools, options.captioned ? ["libx264", "subtitles"] : ["libx264"]);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  if (!info.hasVideo) {
    throw new MediaError(`${source} has no video stream to reframe`, { code: "invalid_input" });
  }
  const { width, height } = options;
  const graph = reframeFilter({
    width,
    height,
    mode,
    ...(options.blur === undefined ? {} : { blur: options.blur }),
  });
  const seconds = info.videoDuration ?? info.duration;
  const rate = nominalRate(info);
  const expect = {
    duration: info.duration,
    tolerance: 0.1,
    width,
    height,
    audio: info.hasAudio,
    rate,
  };
  const audio = info.hasAudio ? ["-map", "0:a:0", "-c:a", "copy"] : [];
  const { captioned } = options;
  if (!captioned) {
    return render(
      {
        tools,
        output: options.output,
        seconds,
        args: (temp) => [
          ...[
            "-i",
            source,
            "-filter_complex",
            graph,
            "-map",
            "[v]",
            ...videoEncoderArgsFor(options),
          ],
          ...[...audio, "-movflags", "+faststart", temp],
        ],
        expect,
      },
      options,
    );
  }
  // One decode and one reframe for both: the picture split after it, one copy encoded as
  // `output` is, the other captioned and encoded as a final.
  const script = await wordCaptionsScript(captioned, width, height);
  const second = path.resolve(captioned.output);
  return withScratchDirectory(second, (scratch) =>
    withTempOutput(second, async (secondTemp) => {
      const burn = await assFilter(scratch, script.text, script.fonts);
      const made = await render(
        {
          tools,
          output: options.output,
          seconds,
          args: (temp) => [
            ...["-i", source, "-filter_complex"],
            `${graph.replace(/\[v\]$/, "[reframed]")};[reframed]split=2[v][tocaption];[tocaption]${burn}[captioned]`,
            ...[
              "-map",
              "[v]",
              ...videoEncoderArgsFor(options),
              ...audio,
              "-movflags",
              "+faststart",
            ],
            temp,
            ...[
              "-map",
              "[captioned]",
              ...videoEncoderArgsFor(captioned),
              ...audio,
              "-movflags",
              "+faststart",
            ],
            secondTemp,
          ],
          expect,
        },
        options,
      );
      const info = await verifyOutput(tools, secondTemp, expect, second, options.signal);
      return { ...made, captioned: { output: second, info, missing: script.missing } };
    }),
  );
}
