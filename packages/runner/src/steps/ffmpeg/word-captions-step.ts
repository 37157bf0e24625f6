import { writeFile } from "node:fs/promises";
import {
  burnWordCaptions,
  type MediaInfo,
  probeUnlessKnown,
  type WordCaptionsOptions,
  type WordTiming,
} from "@reelsmith/media";
import { type WordCaptionsScript, wordCaptionsScript } from "@reelsmith/media/captions";
import { RunnerError } from "../../errors/runner-error.js";
import { type CaptionsRun, captionStyle } from "./captions-step.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { sceneLayout } from "./scene-layout.js";

/** What word captions give (the caller probes the output). */
export interface WordCaptionsResult {
  output: string;
  /** The ASS script burnt in, beside the output. */
  ass: string;
  /** Characters no font has. */
  missing: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One evaluated word timing, checked. */
function wordOf(value: unknown, where: string): WordTiming {
  if (!isRecord(value) || typeof value.word !== "string") {
    throw new RunnerError(
      "ffmpeg_captions_input",
      `captions \`${where}\` is not a word timing { word, start, end }; got ${JSON.stringify(value)?.slice(0, 80)}`,
    );
  }
  return { word: value.word, start: Number(value.start), end: Number(value.end) };
}

/**
 * The words on the film's timeline: one list per scene, each moved to its clip's start, or
 * one list already on the film's timeline.
 *
 * @example
 * filmWords([[{ word: "Dawn", start: 0.1, end: 0.5 }], [{ word: "Dusk", start: 0.2, end: 0.6 }]], [0, 4]);
 * // [{ word: "Dawn", start: 0.1, end: 0.5 }, { word: "Dusk", start: 4.2, end: 4.6 }]
 */
export function filmWords(value: unknown, starts: readonly number[] | undefined): WordTiming[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new RunnerError(
      "ffmpeg_captions_input",
      `captions \`words\` must give a list: one list of { word, start, end } per scene, or one list on the film's timeline; got ${Array.isArray(value) ? "an empty list" : value === null ? "null" : typeof value}`,
    );
  }
  const perScene = value.every((entry) => Array.isArray(entry) || entry === null);
  if (!perScene) return value.map((entry, index) => wordOf(entry, `words[${index}]`));
  if (!starts) {
    throw new RunnerError(
      "ffmpeg_captions_input",
      "captions `words` gives one list per scene: give `clips` too (each scene's words start with its clip)",
    );
  }
  if (value.length !== starts.length) {
    throw new RunnerError(
      "ffmpeg_captions_count",
      `captions needs one list of words per clip: got ${value.length} lists for ${starts.length} clips`,
    );
  }
  const words: WordTiming[] = [];
  value.forEach((scene: unknown[] | null, index) => {
    const start = starts[index] ?? 0;
    const next = starts[index + 1];
    for (const [position, entry] of (scene ?? []).entries()) {
      const word = wordOf(entry, `words[${index}][${position}]`);
      if (next !== undefined && word.start + start >= next) {
        throw new RunnerError(
          "ffmpeg_captions_timing",
          `captions: scene ${index + 1}'s word "${word.word}" is said at ${(start + word.start).toFixed(2)} s, after its clip ends (${next.toFixed(2)} s): its narration is longer than its clip; fit each clip to its narration first (\`fit:\` with \`seconds: \${{ … .duration }}\`)`,
        );
      }
      words.push({ word: word.word, start: word.start + start, end: word.end + start });
    }
  });
  if (words.length === 0)
    throw new RunnerError("ffmpeg_captions_input", "captions `words` has no word in any scene");
  return words;
}

/** Word captions as they will be burnt: media's options and the ASS script for the video's size. */
export interface WordCaptionsPlan {
  options: WordCaptionsOptions;
  script: WordCaptionsScript;
}

/**
 * The word captions a step asks for, laid out on its video: each scene's words from its
 * clip's start, paged within its clip. `videoInfo` stands for the video when it is not made
 * yet (else it is probed, or read from the known probes).
 * @example const { options, script } = await planWordCaptions(spec, { ...run, clips });
 */
export async function planWordCaptions(
  spec: FfmpegStepSpec,
  run: Pick<CaptionsRun, "video" | "fonts" | "probes" | "signal"> & {
    clips: string[] | undefined;
    videoInfo?: MediaInfo;
  },
): Promise<WordCaptionsPlan> {
  const layout = run.clips
    ? await sceneLayout({
        video: run.video,
        clips: run.clips,
        overlap: spec.transition_duration,
        what: "captions",
        probes: run.probes,
        signal: run.signal,
        ...(run.videoInfo ? { videoInfo: run.videoInfo } : {}),
      })
    : undefined;
  const words = filmWords(spec.words, layout?.starts);
  const style = spec.style ?? {};
  const options: WordCaptionsOptions = {
    words,
    ...(style.mode === undefined ? {} : { mode: style.mode }),
    ...(style.preset === undefined ? {} : { preset: style.preset }),
    ...(style.highlight_color === undefined ? {} : { highlightColor: style.highlight_color }),
    style: captionStyle(style),
    ...(run.fonts.length > 0 ? { fonts: run.fonts } : {}),
    // Each clip's start after the first is a cut: no page of words runs across it.
    ...(layout ? { cuts: layout.starts.slice(1) } : {}),
  };
  const info =
    run.videoInfo ?? (await probeUnlessKnown(run.video, run.probes, { signal: run.signal }));
  return { options, script: await wordCaptionsScript(options, info.width, info.height) };
}

/** The ASS script's file beside a captioned video (`final.mp4` → `final.ass`). */
export function assBeside(output: string): string {
  return output.replace(/\.[^./\\]+$/, ".ass");
}

/**
 * Burns a narration's words into a joined video as they are spoken (word captions), each
 * scene's words from its clip's start and paged within its clip (a page never runs across
 * a cut), and writes the ASS script beside the output.
 *
 * @example
 * await runWordCaptions({ captions: "mixed.mp4", words: [[…], […]], style: { preset: "social" }, output: "final.mp4" }, run);
 */
export async function runWordCaptions(
  spec: FfmpegStepSpec,
  run: Omit<CaptionsRun, "clips"> & { clips: string[] | undefined },
): Promise<WordCaptionsResult> {
  const { options, script } = await planWordCaptions(spec, run);
  const result = await burnWordCaptions(run.video, {
    ...options,
    output: run.output,
    signal: run.signal,
    onProgress: run.onProgress,
    ...(run.intermediate ? { intermediate: true } : {}),
    ...(run.onCommand ? { onCommand: run.onCommand } : {}),
  });
  // Beside the video, in the folder its writing made.
  const ass = assBeside(result.output);
  await writeFile(ass, script.text);
  if (result.missing.length > 0) run.onMissing(result.missing, ass);
  return { output: result.output, ass, missing: result.missing };
}
