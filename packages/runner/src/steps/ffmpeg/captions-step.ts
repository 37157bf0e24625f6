import { burnCaptions, type CaptionStyle, type KnownProbe } from "@reelsmith/media";
import { captionCues } from "@reelsmith/media/captions";
import { RunnerError } from "../../errors/runner-error.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { sceneLayout } from "./scene-layout.js";

/** What the captions operation needs besides its spec: files resolved, progress, probes. */
export interface CaptionsRun {
  video: string;
  clips: string[];
  /** Font files, resolved. */
  fonts: string[];
  output: string;
  signal: AbortSignal;
  onProgress: (progress: { percent: number }) => void;
  /** Only another ffmpeg pass reads the output: lossless and fast. */
  intermediate?: boolean;
  /** Told each ffmpeg command line. */
  onCommand?: (command: { program: string; args: readonly string[] }) => void;
  probes: KnownProbe[] | undefined;
  /** Told the characters no font has (left out of the picture, kept in the SRT). */
  onMissing: (missing: string[], srt: string) => void;
}

/** What the captions operation gives (the caller probes the output). */
export interface CaptionsResult {
  output: string;
  /** The SRT beside the output. */
  srt: string;
  /** Characters no font has. */
  missing: string[];
}

/**
 * Burns one caption per clip into a joined video, each on screen while its clip is (probed
 * durations, minus the overlap of each join when the clips were joined with a transition),
 * and writes the captions as an `.srt` beside the output. The video's own length is checked
 * against the clips' layout first: a video joined with a transition that the step does not
 * name (or the other way round) would put every caption out of step.
 *
 * @example
 * await runCaptions({ captions: "joined.mp4", texts: ["Dawn", "Dusk"], output: "final.mp4" }, run);
 */
export async function runCaptions(spec: FfmpegStepSpec, run: CaptionsRun): Promise<CaptionsResult> {
  const texts = captionTexts(spec.texts);
  if (texts.length !== run.clips.length) {
    throw new RunnerError(
      "ffmpeg_captions_count",
      `captions needs one text per clip: got ${texts.length} texts for ${run.clips.length} clips`,
    );
  }
  const { durations, overlap } = await sceneLayout({
    video: run.video,
    clips: run.clips,
    overlap: spec.transition_duration,
    what: "captions",
    probes: run.probes,
    signal: run.signal,
  });
  const cues = captionCues({
    texts,
    durations,
    ...(overlap > 0 ? { transition: { duration: overlap } } : {}),
  });
  const result = await burnCaptions(run.video, {
    output: run.output,
    cues,
    style: captionStyle(spec.style),
    srtOutput: true,
    ...(run.fonts.length > 0 ? { fonts: run.fonts } : {}),
    signal: run.signal,
    onProgress: run.onProgress,
    ...(run.intermediate ? { intermediate: true } : {}),
    ...(run.onCommand ? { onCommand: run.onCommand } : {}),
  });
  const srt = result.srtOutput ?? run.output.replace(/\.[^./\\]+$/, ".srt");
  if (result.missing.length > 0) run.onMissing(result.missing, srt);
  return { output: result.output, srt, missing: result.missing };
}

/** The captions' texts from the evaluated `texts`: a list; null gives an empty caption. */
function captionTexts(value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw new RunnerError(
      "ffmpeg_captions_input",
      `captions \`texts\` must give a list of texts, one per clip; got ${value === null ? "null" : typeof value}`,
    );
  }
  return value.map((text, index) => {
    if (text === null || text === undefined) return "";
    if (typeof text === "string" || typeof text === "number" || typeof text === "boolean")
      return String(text);
    throw new RunnerError(
      "ffmpeg_captions_input",
      `captions \`texts[${index}]\` is ${Array.isArray(text) ? "a list" : "an object"}, not a text: read a field of it, e.g. \`scenes.*.description\``,
    );
  });
}

/** The pipeline's `style` (snake_case) as media's caption style (word captions' fields left out). */
export function captionStyle(style: FfmpegStepSpec["style"]): CaptionStyle {
  if (!style) return {};
  const number = (value: unknown) =>
    value === undefined || value === null || value === "" ? undefined : Number(value);
  const entries: [keyof CaptionStyle, unknown][] = [
    ["fontSize", number(style.font_size)],
    ["color", style.color],
    ["outlineWidth", number(style.outline)],
    ["outlineColor", style.outline_color],
    ["position", style.position],
    ["margin", number(style.margin)],
    ["maxLineLength", number(style.max_line_length)],
    ["bold", style.bold],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as CaptionStyle;
}
