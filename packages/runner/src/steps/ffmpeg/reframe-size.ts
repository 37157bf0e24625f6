import { RunnerError } from "../../errors/runner-error.js";

/** Width and height in pixels. */
export interface FrameSize {
  width: number;
  height: number;
}

const even = (value: number) => Math.max(2, 2 * Math.round(value / 2));

/**
 * The size of a reframed film: `size` as asked, or from `aspect` ("W:H") the source's
 * shorter side kept and the other side from the ratio, both even (1920x1080 at "9:16" is
 * 1080x1920; at "1:1", 1080x1080).
 *
 * @example
 * reframeSize({ aspect: "9:16", source: { width: 1280, height: 720 } }); // { width: 720, height: 1280 }
 * reframeSize({ size: "1080x1920", source: { width: 1280, height: 720 } }); // { width: 1080, height: 1920 }
 */
export function reframeSize(options: {
  size?: string | undefined;
  aspect?: string | undefined;
  source: FrameSize;
}): FrameSize {
  if (options.aspect !== undefined) {
    const match = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(options.aspect);
    const across = Number(match?.[1]);
    const down = Number(match?.[2]);
    if (!match || !(across > 0 && down > 0)) {
      throw new RunnerError(
        "ffmpeg_reframe_size",
        `reframe \`aspect\` must be W:H, e.g. "9:16"; got "${options.aspect}"`,
      );
    }
    const shorter = Math.min(options.source.width, options.source.height);
    return across <= down
      ? { width: even(shorter), height: even((shorter * down) / across) }
      : { width: even((shorter * across) / down), height: even(shorter) };
  }
  const match = /^(\d+)x(\d+)$/.exec(options.size ?? "");
  if (!match) {
    throw new RunnerError(
      "ffmpeg_reframe_size",
      `reframe needs \`size\` WIDTHxHEIGHT or \`aspect\` W:H; got ${JSON.stringify(options.size)}`,
    );
  }
  return { width: Number(match[1]), height: Number(match[2]) };
}
