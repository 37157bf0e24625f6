import path from "node:path";
import { audioNormalizeChain } from "../filters/normalize.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { render } from "../process/render.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { audioEncoderArgs, requirePositive } from "./video-encoder-args.js";

/** Options of {@link setAudio}. */
export interface SetAudioOptions extends MediaOptions {
  output: string;
  /** The audio file (any format ffmpeg reads; a video's audio track works too). */
  audio: string;
  /**
   * `replace` (default): the new track replaces the clip's sound. `mix`: both are mixed into
   * one track. `add`: the new track is added as a second audio track (the clip's stays first).
   * On a clip without sound, `mix` and `add` act as `replace`.
   */
  mode?: "add" | "replace" | "mix";
  /** Repeat the audio until the video ends (otherwise silence fills the rest). */
  loop?: boolean;
  /** Seconds of fade-in at the start. */
  fadeIn?: number;
  /** Seconds of fade-out before the end of the video. */
  fadeOut?: number;
  /** Gain applied to the new audio (1 = unchanged). */
  volume?: number;
}

/**
 * Give a clip a soundtrack: replace, mix with or add to its audio. The track is looped or
 * cut to the video's length, optionally faded; the video stream is copied, not re-encoded.
 *
 * @example
 * await setAudio("final.mp4", { output: "final-music.mp4", audio: "music.mp3", mode: "mix", loop: true, fadeOut: 2, volume: 0.5 });
 */
export async function setAudio(
  input: string,
  options: SetAudioOptions,
): Promise<{ output: string; info: MediaInfo }> {
  const mode = options.mode ?? "replace";
  if (!["add", "replace", "mix"].includes(mode))
    throw new TypeError(`Expected \`mode\` to be add, replace or mix; got ${String(mode)}`);
  const fadeIn = requirePositive("fadeIn", options.fadeIn, true);
  const fadeOut = requirePositive("fadeOut", options.fadeOut, true);
  const volume = requirePositive("volume", options.volume, true) ?? 1;
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["aac"]);
  const source = path.resolve(input);
  const audioFile = path.resolve(options.audio);
  const [info, track] = await Promise.all([
    probe(source, { tools, signal: options.signal }),
    probe(audioFile, { tools, signal: options.signal }),
  ]);
  if (!track.hasAudio)
    throw new TypeError(`Expected \`audio\` to have an audio stream: ${audioFile}`);
  const seconds = info.videoDuration ?? info.duration;
  const music = [audioNormalizeChain, `volume=${volume}`];
  if (!options.loop) music.push("apad");
  music.push(`atrim=duration=${seconds.toFixed(6)}`, "asetpts=PTS-STARTPTS");
  if (fadeIn) music.push(`afade=t=in:st=0:d=${fadeIn}`);
  if (fadeOut)
    music.push(`afade=t=out:st=${Math.max(0, seconds - fadeOut).toFixed(6)}:d=${fadeOut}`);
  const graph = [`[1:a:0]${music.join(",")}[music]`];
  const maps = ["-map", "0:v:0"];
  if (mode === "mix" && info.hasAudio) {
    graph.push(
      `[0:a:0]${audioNormalizeChain},apad,atrim=duration=${seconds.toFixed(6)}[own]`,
      "[own][music]amix=inputs=2:duration=first:dropout_transition=0,volume=2[mixed]",
    );
    maps.push("-map", "[mixed]");
  } else if (mode === "add" && info.hasAudio) {
    maps.push("-map", "0:a:0", "-map", "[music]");
  } else {
    maps.push("-map", "[music]");
  }
  const streams = mode === "add" && info.hasAudio ? 2 : 1;
  return render(
    {
      tools,
      output: options.output,
      seconds,
      args: (temp) => [
        "-i",
        source,
        ...(options.loop ? ["-stream_loop", "-1"] : []),
        "-i",
        audioFile,
        "-filter_complex",
        graph.join(";"),
        ...maps,
        "-c:v",
        "copy",
        ...audioEncoderArgs,
        "-t",
        seconds.toFixed(6),
        "-movflags",
        "+faststart",
        temp,
      ],
      expect: {
        duration: seconds,
        tolerance: 0.1,
        audioStreams: streams,
        width: info.width,
        height: info.height,
      },
    },
    options,
  );
}
