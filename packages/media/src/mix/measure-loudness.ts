import path from "node:path";
import { MediaError } from "../errors/media-error.js";
import type { MediaOptions } from "../options.js";
import { resolveTools, runFfmpeg } from "../process/run-ffmpeg.js";

/** Loudness figures of a sound (EBU R128), as `loudnorm` measures them. */
export interface Loudness {
  /** Integrated loudness in LUFS (−Infinity for silence). */
  integrated: number;
  /** True peak in dBTP. */
  truePeak: number;
  /** Loudness range in LU. */
  range: number;
  /** The gating threshold in LUFS (what a second `loudnorm` pass needs). */
  threshold: number;
}

/** The JSON block `loudnorm=print_format=json` writes at the end of a run. */
export interface LoudnormReport {
  input_i: string;
  input_tp: string;
  input_lra: string;
  input_thresh: string;
  output_i: string;
  output_tp: string;
  output_lra: string;
  output_thresh: string;
  normalization_type: string;
  target_offset: string;
}

/**
 * The last `loudnorm` JSON report in ffmpeg's log (run with `logLevel: "info"`).
 *
 * @example
 * const report = parseLoudnormReport(stderr); // { input_i: "-23.51", …, normalization_type: "linear" }
 */
export function parseLoudnormReport(log: string): LoudnormReport {
  const start = log.lastIndexOf("[Parsed_loudnorm");
  const open = log.indexOf("{", start);
  const close = log.indexOf("}", open);
  if (start < 0 || open < 0 || close < 0) {
    throw new MediaError(`ffmpeg wrote no loudnorm report:\n${log.slice(-1000)}`, {
      code: "loudness_unmeasured",
    });
  }
  return JSON.parse(log.slice(open, close + 1)) as LoudnormReport;
}

/** The input side of a loudnorm report as numbers. */
export function loudnessOf(report: LoudnormReport): Loudness {
  return {
    integrated: Number(report.input_i),
    truePeak: Number(report.input_tp),
    range: Number(report.input_lra),
    threshold: Number(report.input_thresh),
  };
}

/**
 * Measure the integrated loudness, true peak and loudness range of a file's first audio
 * track (EBU R128, with ffmpeg's `loudnorm` in measuring mode).
 *
 * @example
 * const { integrated, truePeak } = await measureLoudness("final.mp4"); // -14.1, -1.6
 */
export async function measureLoudness(file: string, options: MediaOptions = {}): Promise<Loudness> {
  const tools = await resolveTools(options);
  const { stderr } = await runFfmpeg(
    tools,
    [
      ...["-i", path.resolve(file), "-map", "0:a:0", "-af", "loudnorm=print_format=json"],
      ...["-f", "null", "-"],
    ],
    {
      signal: options.signal,
      stallTimeoutMs: options.stallTimeoutMs,
      onCommand: options.onCommand,
      logLevel: "info",
    },
  );
  return loudnessOf(parseLoudnormReport(stderr));
}
