import path from "node:path";
import type { KnownProbe, MediaInfo } from "@reelsmith/media";

/** The `probe` output of a step that wrote a media file: its media info and identity. */
export type ProbeOutput = MediaInfo & { size: number; mtimeMs: number };

/** The `probe` output of a known probe (what the step writes into its outputs). */
export function probeOutput(known: KnownProbe): ProbeOutput {
  const info = known.info;
  // Every field spelled out, in one literal: all probe outputs share one hidden class with
  // their fields in the object (a spread of the info adds them one by one, out of it, and
  // `Object.assign` of some 24 fields makes a slow dictionary object). A run of thousands of
  // clips keeps one per clip. An info that is itself a probe output (one read back from a
  // step's outputs) gives way to the known probe's own size and time.
  return {
    size: known.size,
    mtimeMs: known.mtimeMs,
    duration: info.duration,
    width: info.width,
    height: info.height,
    fps: info.fps,
    sar: info.sar,
    pixelFormat: info.pixelFormat,
    videoCodec: info.videoCodec,
    audioCodec: info.audioCodec,
    hasAudio: info.hasAudio,
    sampleRate: info.sampleRate,
    channels: info.channels,
    hasVideo: info.hasVideo,
    audioStreams: info.audioStreams,
    subtitleStreams: info.subtitleStreams,
    frameRate: info.frameRate,
    averageFrameRate: info.averageFrameRate,
    videoStart: info.videoStart,
    videoDuration: info.videoDuration,
    audioDuration: info.audioDuration,
    signature: info.signature,
  };
}

/**
 * The absolute form of a path, as the same string when it is one already: the run's outputs,
 * its known probes and their index then share one string per file.
 */
function absolute(file: string): string {
  const resolved = path.resolve(file);
  return resolved === file ? file : resolved;
}

/**
 * A step's `probe` output as the run's known probe of its file, sharing the output's object as
 * its media info (a `ProbeOutput` is a `MediaInfo` with two more fields): a run of thousands of
 * clips keeps one copy of each clip's probe, not one in its outputs and another here.
 */
export function knownFromOutput(file: string, probe: ProbeOutput): KnownProbe {
  return { file: absolute(file), size: probe.size, mtimeMs: probe.mtimeMs, info: probe };
}

function fromOutput(value: unknown): KnownProbe | undefined {
  if (!value || typeof value !== "object") return undefined;
  const { file, probe } = value as { file?: unknown; probe?: unknown };
  if (typeof file !== "string" || !probe || typeof probe !== "object") return undefined;
  const { size, mtimeMs } = probe as Partial<ProbeOutput>;
  if (typeof size !== "number" || typeof mtimeMs !== "number") return undefined;
  return knownFromOutput(file, probe as ProbeOutput);
}

/**
 * The probes a run already made, by absolute path: clips probed when downloaded, outputs
 * verified when written. Steps that read media files pass them to @reelsmith/media, which
 * trusts one only while the file keeps its size and modification time.
 */
export class KnownProbes {
  readonly #byFile = new Map<string, KnownProbe>();

  add(known: KnownProbe): void {
    const file = absolute(known.file);
    const kept = this.#byFile.get(file);
    // The same probe seen again (a step's outputs, after its unit added it): kept as it was.
    if (kept && kept.info === known.info) return;
    this.#byFile.set(file, known);
  }

  /** Keeps the probes found in a step's outputs (`{ file, probe }`, or a fan-out's list of them). */
  addFromOutputs(outputs: unknown): void {
    for (const value of Array.isArray(outputs) ? outputs : [outputs]) {
      const known = fromOutput(value);
      if (known) this.add(known);
    }
  }

  /** The probes of these files that are known. */
  for(files: readonly string[]): KnownProbe[] {
    const found: KnownProbe[] = [];
    for (const file of files) {
      const known = this.#byFile.get(absolute(file));
      if (known) found.push(known);
    }
    return found;
  }
}
