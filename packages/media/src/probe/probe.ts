import path from "node:path";
import { MediaError } from "../errors/media-error.js";
import type { MediaOptions } from "../options.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { runProcess } from "../process/run-process.js";
import { parseRate } from "./parse-rate.js";

/** What {@link probe} reports about a media file. */
export interface MediaInfo {
  /** Container duration in seconds. */
  duration: number;
  width: number;
  height: number;
  /** Frames per second (from `r_frame_rate`), 0 without video. */
  fps: number;
  /** Sample aspect ratio, e.g. `1:1`. */
  sar: string;
  pixelFormat: string;
  /** Video codec name, e.g. `h264`; empty without a video stream. */
  videoCodec: string;
  audioCodec: string | null;
  hasAudio: boolean;
  sampleRate: number | null;
  channels: number | null;
  /** Whether the file has a video stream. */
  hasVideo: boolean;
  /** Number of audio streams. */
  audioStreams: number;
  /** Number of subtitle streams. */
  subtitleStreams: number;
  /** Exact frame rate as a fraction string, e.g. `30000/1001`. */
  frameRate: string;
  /** Average frame rate; equal to `frameRate` for constant frame rate video. */
  averageFrameRate: string;
  /** When the video stream starts, in seconds (usually 0). */
  videoStart: number;
  /** Video stream duration in seconds, if known. */
  videoDuration: number | null;
  /** Audio stream duration in seconds, if known. */
  audioDuration: number | null;
  /** Codec details that decide whether two files can be joined without re-encoding. */
  signature: { video: string; audio: string };
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  level?: number;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  pix_fmt?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  time_base?: string;
  field_order?: string;
  duration?: string;
  start_time?: string;
  sample_rate?: string;
  channels?: number;
  channel_layout?: string;
  extradata_hash?: string;
  disposition?: { attached_pic?: number };
}

/**
 * Only the fields {@link toMediaInfo} reads, on one line: a clip's whole `-show_format
 * -show_streams` is about 4 KB of indented JSON, these about 0.9 KB (a run of thousands of
 * clips decodes and parses each probe's text).
 */
const probedEntries = [
  "format=duration",
  "stream=codec_type,codec_name,profile,level,width,height,sample_aspect_ratio,pix_fmt," +
    "r_frame_rate,avg_frame_rate,time_base,field_order,duration,start_time,sample_rate," +
    "channels,channel_layout,extradata_hash",
  "stream_disposition=attached_pic",
].join(":");

/**
 * Read duration, size, frame rate, aspect, pixel format, codecs and audio layout with ffprobe.
 *
 * @example
 * const info = await probe("clip.mp4");
 * console.log(info.duration, `${info.width}x${info.height}`, info.fps, info.hasAudio);
 */
export async function probe(file: string, options: MediaOptions = {}): Promise<MediaInfo> {
  const tools = await resolveTools(options);
  const absolute = path.resolve(file);
  const { stdout } = await runProcess(
    tools.ffprobe.path,
    [
      "-hide_banner",
      "-v",
      "error",
      "-print_format",
      "json=compact=1",
      "-show_entries",
      probedEntries,
      "-show_data_hash",
      "CRC32",
      ...literalImageName(absolute),
      absolute,
    ],
    { signal: options.signal },
  );
  let parsed: { streams?: ProbeStream[]; format?: { duration?: string } };
  try {
    parsed = JSON.parse(stdout);
  } catch (error) {
    throw new MediaError(`ffprobe returned unreadable output for ${absolute}`, {
      code: "probe_failed",
      cause: error,
    });
  }
  return toMediaInfo(absolute, parsed.streams ?? [], parsed.format?.duration);
}

function toMediaInfo(file: string, streams: ProbeStream[], formatDuration?: string): MediaInfo {
  const video = streams.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === "audio");
  if (!video && !audio) {
    throw new MediaError(`${file} has neither a video nor an audio stream`, {
      code: "probe_failed",
    });
  }
  const videoDuration = toNumber(video?.duration);
  const audioDuration = toNumber(audio?.duration);
  const duration = toNumber(formatDuration) ?? Math.max(videoDuration ?? 0, audioDuration ?? 0);
  const frameRate = video?.r_frame_rate ?? "0/0";
  const sar =
    video?.sample_aspect_ratio && video.sample_aspect_ratio !== "0:1"
      ? video.sample_aspect_ratio
      : "1:1";
  return {
    duration,
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    fps: parseRate(frameRate),
    sar,
    pixelFormat: video?.pix_fmt ?? "",
    videoCodec: video?.codec_name ?? "",
    audioCodec: audio?.codec_name ?? null,
    hasAudio: audio !== undefined,
    sampleRate: audio?.sample_rate ? Number(audio.sample_rate) : null,
    channels: audio?.channels ?? null,
    hasVideo: video !== undefined,
    audioStreams: streams.filter((s) => s.codec_type === "audio").length,
    subtitleStreams: streams.filter((s) => s.codec_type === "subtitle").length,
    frameRate,
    averageFrameRate: video?.avg_frame_rate ?? "0/0",
    videoStart: toNumber(video?.start_time) ?? 0,
    videoDuration,
    audioDuration,
    signature: {
      video: video
        ? sharedText([
            video.codec_name,
            video.profile,
            video.level,
            video.width,
            video.height,
            sar,
            video.pix_fmt,
            frameRate,
            video.time_base,
            video.field_order ?? "",
            video.extradata_hash ?? "",
          ])
        : "",
      audio: audio
        ? sharedText([
            audio.codec_name,
            audio.profile,
            audio.sample_rate,
            audio.channels,
            audio.channel_layout ?? "",
            audio.extradata_hash ?? "",
          ])
        : "",
    },
  };
}

/** Signatures already made, each kept once (bounded: cleared when it fills). */
const signatures = new Map<string, string>();

/**
 * A signature's text, the same string as an equal one made before: the clips of one model
 * share their codecs, so a run that keeps thousands of probes keeps a few signatures, not
 * one copy per clip.
 */
function sharedText(parts: unknown[]): string {
  const text = parts.join("|");
  const kept = signatures.get(text);
  if (kept !== undefined) return kept;
  if (signatures.size >= 256) signatures.clear();
  signatures.set(text, text);
  return text;
}

const imageExtensions = /\.(png|jpe?g|webp|bmp|tiff?|gif)$/i;

/** Stop the image2 demuxer reading `%d` in a picture's name as a frame-number pattern. */
function literalImageName(file: string): string[] {
  return path.basename(file).includes("%") && imageExtensions.test(file)
    ? ["-f", "image2", "-pattern_type", "none"]
    : [];
}

function toNumber(value: string | undefined): number | null {
  if (value === undefined || value === "N/A") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}
