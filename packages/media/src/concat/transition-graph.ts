import { parseRate } from "../probe/parse-rate.js";

/** A transition between consecutive clips. */
export interface Transition {
  /** `crossfade` blends the clips; `fade` dips through black. */
  type: "crossfade" | "fade";
  /** Seconds of overlap between two clips. */
  duration: number;
}

/** How the video of a transition join is blended: `xfade` (ffmpeg >= 4.3) or `overlay` (any). */
export type TransitionEngine = "xfade" | "overlay";

/** What the video part of a transition graph needs to know. */
export interface TransitionGraphInput {
  /** Seconds of each clip (already trimmed to this length, starting at 0). */
  durations: readonly number[];
  transition: Transition;
  /** Size and rate of the output, for the background of the overlay engine. */
  width: number;
  height: number;
  rate: string;
}

/** Filter graph lines joining the labels `[v0]`…`[vN]` into `[vout]`. */
export type TransitionGraph = string[];

const seconds = (value: number) => value.toFixed(6);

/**
 * Where each clip starts in the output: the previous clip's start plus its length, minus one
 * transition. The output lasts the sum of the clips minus one transition per join.
 *
 * @example
 * clipStarts([2, 2, 2], 0.5); // { starts: [0, 1.5, 3], total: 5 }
 */
export function clipStarts(
  durations: readonly number[],
  overlap: number,
): { starts: number[]; total: number } {
  const starts: number[] = [];
  let position = 0;
  durations.forEach((duration, index) => {
    if (index > 0) position -= overlap;
    starts.push(position);
    position += duration;
  });
  return { starts, total: position };
}

/**
 * The `xfade` chain (ffmpeg >= 4.3): each join blends the running result with the next clip
 * from `offset` = that clip's start; the result is cut to sum − (n−1)·d.
 */
export function xfadeVideoGraph(input: TransitionGraphInput): TransitionGraph {
  const { duration: overlap, type } = input.transition;
  const kind = type === "fade" ? "fadeblack" : "fade";
  const { starts, total } = clipStarts(input.durations, overlap);
  const graph: string[] = [];
  let label = "v0";
  for (let index = 1; index < input.durations.length; index++) {
    const next = `vx${index}`;
    graph.push(
      `[${label}][v${index}]xfade=transition=${kind}:duration=${overlap}:offset=${seconds(starts[index] ?? 0)}[${next}]`,
    );
    label = next;
  }
  // xfade (5.1) emits one frame too many per join at the end; cut to the planned length.
  graph.push(`[${label}]trim=duration=${seconds(total)}[vout]`);
  return graph;
}

/**
 * The same transitions with filters every ffmpeg since 2.x has, for binaries without `xfade`
 * (the 4.1 build npm ships): each clip is shifted to its start with `setpts` and laid with
 * `overlay` over the previous ones on a black background of the output's length.
 *
 * - `crossfade`: each clip after the first fades in through its alpha channel
 *   (`fade=alpha=1` on a yuva420p copy) over the transition, so a frame `k` frames into a
 *   transition is `previous·(1−k/(d·fps)) + next·k/(d·fps)`, as xfade's `fade` makes it.
 * - `fade` (dip to black): the outgoing clip fades to black over the first half of the
 *   transition, the incoming one appears at the middle and fades in from black.
 */
export function overlayVideoGraph(input: TransitionGraphInput): TransitionGraph {
  const { duration: overlap, type } = input.transition;
  const { starts, total } = clipStarts(input.durations, overlap);
  const half = overlap / 2;
  const frame = 1 / parseRate(input.rate);
  const count = input.durations.length;
  const graph: string[] = [
    `color=c=black:s=${input.width}x${input.height}:r=${input.rate}:d=${seconds(total + frame)},format=yuv420p,settb=AVTB[bg]`,
  ];
  for (let index = 0; index < count; index++) {
    const filters: string[] = [];
    const length = input.durations[index] ?? 0;
    if (type === "fade") {
      if (index > 0) filters.push(`fade=t=in:st=${seconds(half)}:d=${seconds(half)}`);
      if (index < count - 1)
        filters.push(`fade=t=out:st=${seconds(length - overlap)}:d=${seconds(half)}`);
    }
    if (index > 0) {
      filters.push("format=yuva420p");
      filters.push(
        type === "fade"
          ? `fade=t=in:st=${seconds(half)}:d=${seconds(frame)}:alpha=1`
          : `fade=t=in:st=0:d=${seconds(overlap)}:alpha=1`,
      );
    }
    filters.push(`setpts=PTS+${seconds(starts[index] ?? 0)}/TB`);
    graph.push(`[v${index}]${filters.join(",")}[t${index}]`);
    const base = index === 0 ? "bg" : `o${index - 1}`;
    graph.push(`[${base}][t${index}]overlay=eof_action=pass:format=yuv420[o${index}]`);
  }
  graph.push(`[o${count - 1}]trim=duration=${seconds(total)},setpts=PTS-STARTPTS[vout]`);
  return graph;
}
