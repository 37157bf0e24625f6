import { type KnownProbe, type MediaInfo, probeUnlessKnown } from "@reelsmith/media";
import { clipDurations } from "@reelsmith/media/captions";
import { RunnerError } from "../../errors/runner-error.js";

/** Where each clip of a joined video is on its timeline. */
export interface SceneLayout {
  /** Each clip's probed length, in order. */
  durations: number[];
  /** Where each clip starts on the joined video (each join overlapping by `overlap`). */
  starts: number[];
  /** Seconds each join overlaps (a transition's duration; 0 after concat). */
  overlap: number;
  /** The joined video's length. */
  length: number;
}

/** Seconds the joined video may differ from its clips' layout: rounding of each clip. */
const layoutTolerance = (clips: number) => 0.15 + 0.05 * clips;

/**
 * Where each clip starts on a video joined from them, from their probed lengths minus each
 * join's overlap, after checking the video lasts what they add up to: a video joined with a
 * transition the step does not name (or the other way round) would put everything timed
 * to the scenes out of step.
 *
 * @example
 * const { starts } = await sceneLayout({ video: "joined.mp4", clips: ["a.mp4", "b.mp4"], overlap: 0, what: "mix" });
 * // starts: [0, 4.0]
 */
export async function sceneLayout(options: {
  video: string;
  clips: readonly string[];
  overlap: unknown;
  /** The operation, for messages and codes (`ffmpeg_mix_input`, `ffmpeg_captions_timing`). */
  what: "mix" | "captions";
  probes?: KnownProbe[];
  signal?: AbortSignal;
  /** What the video is, when it is not made yet (a pass that makes it and its reader at once). */
  videoInfo?: MediaInfo;
}): Promise<SceneLayout> {
  const overlap = Number(options.overlap ?? 0);
  if (!(Number.isFinite(overlap) && overlap >= 0)) {
    throw new RunnerError(
      options.what === "mix" ? "ffmpeg_mix_input" : "ffmpeg_captions_input",
      `${options.what} \`transition_duration\` must be a number of seconds from 0; got ${JSON.stringify(options.overlap)}`,
    );
  }
  const probing = { signal: options.signal, probes: options.probes };
  const durations = await clipDurations(options.clips, probing);
  const video =
    options.videoInfo ??
    (await probeUnlessKnown(options.video, options.probes, { signal: options.signal }));
  const laidOut = durations.reduce((sum, d) => sum + d, 0) - overlap * (durations.length - 1);
  const length = video.videoDuration ?? video.duration;
  if (Math.abs(length - laidOut) > layoutTolerance(durations.length)) {
    throw new RunnerError(
      options.what === "mix" ? "ffmpeg_mix_timing" : "ffmpeg_captions_timing",
      `${options.what}: ${options.video} lasts ${length.toFixed(2)} s, but its ${durations.length} clips joined ${overlap > 0 ? `with ${overlap} s transitions` : "end to end"} last ${laidOut.toFixed(2)} s, so the ${options.what === "mix" ? "narration" : "captions"} would drift from the clips; give \`transition_duration\` the joining step's transition \`duration\` (0 for \`concat\`), and \`clips\` the clips it joined, in order`,
    );
  }
  const starts = [0];
  for (const duration of durations.slice(0, -1)) {
    starts.push((starts.at(-1) ?? 0) + duration - overlap);
  }
  return { durations, starts, overlap, length };
}
