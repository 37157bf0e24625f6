import type { CaptionCue } from "./caption-cue.js";
import { formatSrtTime } from "./srt-time.js";
import { defaultMaxLineLength, wrapCaption } from "./wrap-caption.js";

/** Options of {@link formatSrt}. */
export interface FormatSrtOptions {
  /** Columns per line before wrapping (default 42; a CJK character or emoji counts two). */
  maxLineLength?: number;
}

/**
 * Write cues as SubRip (SRT) text: numbered from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, the
 * text wrapped to `maxLineLength`, a blank line after each cue, `\n` line ends. Cues whose
 * text is empty are left out (SRT has no empty cue). Encode the result as UTF-8.
 *
 * @example
 * await writeFile("captions.srt", formatSrt(captionCues({ texts, durations }), { maxLineLength: 32 }), "utf8");
 */
export function formatSrt(cues: readonly CaptionCue[], options: FormatSrtOptions = {}): string {
  const maxLineLength = options.maxLineLength ?? defaultMaxLineLength;
  const blocks: string[] = [];
  for (const cue of cues) {
    const lines = wrapCaption(cue.text, maxLineLength);
    if (lines.length === 0) continue;
    blocks.push(
      `${blocks.length + 1}\n${formatSrtTime(cue.start)} --> ${formatSrtTime(cue.end)}\n${lines.join("\n")}\n`,
    );
  }
  return blocks.join("\n");
}
