import { audioNormalizeChain } from "../filters/normalize.js";

/** What {@link fitDurationGraph} builds a graph for. */
export interface FitDurationGraphInput {
  /** Frames the output has: the asked length in frames of `rate`. */
  frames: number;
  /** The output's length in seconds (`frames / rate`). */
  seconds: number;
  /** Frame rate as ffmpeg accepts it: `24`, `30000/1001`. */
  rate: string;
  width: number;
  height: number;
  /** The clip's sample aspect ratio, `1:1` for square pixels. */
  sar: string;
  /** Input 1 is the clip's last frame, looped: append it after the clip. */
  hold: boolean;
  /** The clip has sound: pad it with silence or cut it to `seconds`. */
  audio: boolean;
}

/**
 * The `-filter_complex` graph that brings input 0 (a clip) to exactly `frames` frames at
 * `rate`, labelled `[v]` (and `[a]` for the sound). With `hold`, input 1 (the clip's last
 * frame as a looping picture) is concatenated after the clip, since ffmpeg 4.1 has no
 * `tpad`; either way `trim=end_frame` cuts the picture to the frame. The sound is padded
 * with silence (`apad`) and cut (`atrim`) to the same length.
 *
 * @example
 * fitDurationGraph({ frames: 60, seconds: 2.5, rate: "24/1", width: 320, height: 180, sar: "1:1", hold: true, audio: true });
 * // "[0:v:0]fps=24/1,setsar=1/1,format=yuv420p[clip];[1:v:0]scale=320:180,fps=24/1,setsar=1/1,format=yuv420p[still];[clip][still]concat=n=2:v=1:a=0,trim=end_frame=60,setpts=PTS-STARTPTS[v];[0:a:0]…,apad,atrim=duration=2.500000,asetpts=PTS-STARTPTS[a]"
 */
export function fitDurationGraph(input: FitDurationGraphInput): string {
  const sar = input.sar.replace(":", "/");
  const picture = `fps=${input.rate},setsar=${sar},format=yuv420p`;
  const cut = `trim=end_frame=${input.frames},setpts=PTS-STARTPTS[v]`;
  const graph = input.hold
    ? [
        `[0:v:0]${picture}[clip]`,
        `[1:v:0]scale=${input.width}:${input.height},${picture}[still]`,
        `[clip][still]concat=n=2:v=1:a=0,${cut}`,
      ]
    : [`[0:v:0]${picture},${cut}`];
  if (input.audio) {
    graph.push(
      `[0:a:0]${audioNormalizeChain},apad,atrim=duration=${input.seconds.toFixed(6)},asetpts=PTS-STARTPTS[a]`,
    );
  }
  return graph.join(";");
}
