import path from "node:path";
import type { MediaOptions } from "../options.js";
import { indexKnownProbes, type KnownProbe, probeUnlessIndexed } from "../probe/known-probe.js";
import { mapLimit } from "../util/map-limit.js";

/**
 * Each clip's length as `concat` lays it out (its video stream's duration, else the
 * file's), for {@link captionCues}. Probes given in `probes` are reused.
 *
 * @example
 * const durations = await clipDurations(["s0.mp4", "s1.mp4"]);
 * const cues = captionCues({ texts: ["Dawn", "Storm"], durations, transition: { duration: 0.5 } });
 */
export async function clipDurations(
  clips: readonly string[],
  options: MediaOptions & { probes?: readonly KnownProbe[] } = {},
): Promise<number[]> {
  const probes = indexKnownProbes(options.probes);
  const infos = await mapLimit(
    clips.map((clip) => path.resolve(clip)),
    4,
    (file) => probeUnlessIndexed(file, probes, options),
  );
  return infos.map((info) => info.videoDuration ?? info.duration);
}
