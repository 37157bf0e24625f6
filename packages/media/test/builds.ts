import { npmCandidate, pathCandidate } from "../src/locate/binary-candidates.js";
import { type FfmpegTools, ffmpegToolsAt } from "../src/locate/locate-ffmpeg.js";

/** One ffmpeg + ffprobe pair the tests can run against. */
export interface Build {
  name: string;
  tools: FfmpegTools;
}

/**
 * The ffmpeg that npm ships (4.1, no xfade), always present since it is a dependency.
 *
 * @example
 * const { tools } = await bundledBuild();
 */
export async function bundledBuild(): Promise<Build> {
  const ffmpeg = npmCandidate("ffmpeg");
  const ffprobe = npmCandidate("ffprobe");
  if (!ffmpeg || !ffprobe) {
    throw new Error("@ffmpeg-installer/@ffprobe-installer binaries are not installed here");
  }
  const tools = await ffmpegToolsAt({ ffmpeg: ffmpeg.path, ffprobe: ffprobe.path });
  return { name: `bundled ffmpeg ${tools.ffmpeg.version}`, tools };
}

/**
 * ffmpeg and ffprobe on PATH, when both are there; `undefined` otherwise (a fresh machine
 * has none).
 *
 * @example
 * const system = await systemBuild();
 * it.skipIf(!system)("…", …);
 */
export async function systemBuild(): Promise<Build | undefined> {
  const [ffmpeg, ffprobe] = await Promise.all([pathCandidate("ffmpeg"), pathCandidate("ffprobe")]);
  if (!ffmpeg || !ffprobe) return undefined;
  const tools = await ffmpegToolsAt({ ffmpeg: ffmpeg.path, ffprobe: ffprobe.path });
  return { name: `system ffmpeg ${tools.ffmpeg.version}`, tools };
}

/**
 * The same binaries, told they have no `xfade`: operations take the path older builds take.
 *
 * @example
 * await concat(files, { output, transition, tools: withoutXfade(tools) });
 */
export function withoutXfade(tools: FfmpegTools): FfmpegTools {
  return { ...tools, capabilities: { ...tools.capabilities, xfade: false } };
}
