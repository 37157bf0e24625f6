import { stat } from "node:fs/promises";
import path from "node:path";
import type { MediaOptions } from "../options.js";
import { type MediaInfo, probe } from "./probe.js";

/**
 * A probe result kept with the file it describes: the file's size and modification time when
 * it was probed tell whether the result still holds (a file that changed is probed again).
 */
export interface KnownProbe {
  /** The file probed. */
  file: string;
  /** Size in bytes when probed. */
  size: number;
  /** Modification time (ms since the epoch) when probed. */
  mtimeMs: number;
  info: MediaInfo;
}

/**
 * Probe a file and keep its identity with the result, e.g. right after downloading it.
 *
 * @example
 * const known = await probeKnown("clips/0.mp4"); // later: concat(files, { output, probes: [known] })
 */
export async function probeKnown(file: string, options: MediaOptions = {}): Promise<KnownProbe> {
  const absolute = path.resolve(file);
  const before = await stat(absolute);
  const info = await probe(absolute, options);
  return { file: absolute, size: before.size, mtimeMs: before.mtimeMs, info };
}

/**
 * The media info of `file`: from `known` when one of them describes the same path with the
 * same size and modification time, else from ffprobe.
 *
 * @example
 * const info = await probeUnlessKnown("clips/0.mp4", knownProbes);
 */
export async function probeUnlessKnown(
  file: string,
  known: readonly KnownProbe[] | undefined,
  options: MediaOptions = {},
): Promise<MediaInfo> {
  const absolute = path.resolve(file);
  const candidates = known?.filter((entry) => path.resolve(entry.file) === absolute) ?? [];
  if (candidates.length > 0) {
    const now = await stat(absolute);
    const match = candidates.find(
      (entry) => entry.size === now.size && entry.mtimeMs === now.mtimeMs,
    );
    if (match) return match.info;
  }
  return probe(absolute, options);
}
