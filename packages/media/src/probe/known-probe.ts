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

/** Known probes by absolute path (a path probed more than once keeps each probe). */
export type KnownProbeIndex = ReadonlyMap<string, readonly KnownProbe[]>;

/**
 * Indexes known probes by their absolute path, once for a list that many files are looked up
 * in (a join of thousands of clips would otherwise resolve every known path for every clip).
 *
 * @example
 * const index = indexKnownProbes(knownProbes);
 * const info = await probeUnlessIndexed("clips/0.mp4", index);
 */
export function indexKnownProbes(known: readonly KnownProbe[] | undefined): KnownProbeIndex {
  const index = new Map<string, KnownProbe[]>();
  for (const entry of known ?? []) {
    const absolute = path.resolve(entry.file);
    const same = index.get(absolute);
    if (same) same.push(entry);
    else index.set(absolute, [entry]);
  }
  return index;
}

/**
 * The media info of `file`: from `known` when one of them describes the same path with the
 * same size and modification time, else from ffprobe.
 *
 * @example
 * const info = await probeUnlessKnown("clips/0.mp4", knownProbes);
 */
export function probeUnlessKnown(
  file: string,
  known: readonly KnownProbe[] | undefined,
  options: MediaOptions = {},
): Promise<MediaInfo> {
  return probeUnlessIndexed(file, indexKnownProbes(known), options);
}

/**
 * {@link probeUnlessKnown} with the known probes indexed once ({@link indexKnownProbes}), for
 * looking many files up in one list.
 *
 * @example
 * const index = indexKnownProbes(knownProbes);
 * const infos = await Promise.all(files.map((file) => probeUnlessIndexed(file, index)));
 */
export async function probeUnlessIndexed(
  file: string,
  index: KnownProbeIndex,
  options: MediaOptions = {},
): Promise<MediaInfo> {
  const absolute = path.resolve(file);
  const candidates = index.get(absolute);
  if (candidates) {
    const now = await stat(absolute);
    const match = candidates.find(
      (entry) => entry.size === now.size && entry.mtimeMs === now.mtimeMs,
    );
    if (match) return match.info;
  }
  return probe(absolute, options);
}
