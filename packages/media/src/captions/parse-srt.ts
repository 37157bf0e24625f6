import { readFile } from "node:fs/promises";
import path from "node:path";
import { CaptionsFileError } from "../errors/captions-file-error.js";
import type { CaptionCue } from "./caption-cue.js";
import { parseSrtTime } from "./srt-time.js";

const timingLine = /^\s*(\S+)\s*-->\s*(\S+)(?:\s+.*)?$/;
const example = '"00:00:01,000 --> 00:00:02,500"';

/**
 * Read SubRip (SRT) text into cues. Accepts a byte-order mark, CRLF or CR line ends, a
 * missing cue number, `.` instead of `,`, and position hints after the end time. Anything
 * else that is not SRT is refused with the 1-based line and what was expected
 * ({@link CaptionsFileError}, code `captions_file_invalid`), as is a cue that ends before it
 * starts and a text without any cue.
 *
 * @example
 * const cues = parseSrt("1\n00:00:00,000 --> 00:00:02,000\nDawn\n", "captions.srt");
 * // [{ index: 0, start: 0, end: 2, text: "Dawn" }]
 */
export function parseSrt(text: string, file = "<srt>"): CaptionCue[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const invalid = (line: number, message: string) =>
    new CaptionsFileError("captions_file_invalid", file, `${file}:${line}: ${message}`, { line });
  const isTiming = (line: string | undefined) => line !== undefined && timingLine.test(line);
  const cues: CaptionCue[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    if (!line.trim()) {
      index++;
      continue;
    }
    // An optional cue number before the time line.
    if (/^\s*\d+\s*$/.test(line) && isTiming(lines[index + 1])) index++;
    const timing = timingLine.exec(lines[index] ?? "");
    if (!timing) {
      throw invalid(
        index + 1,
        `expected a cue number or a time line such as ${example}; got ${JSON.stringify(lines[index])}`,
      );
    }
    const start = parseSrtTime(timing[1] ?? "");
    const end = parseSrtTime(timing[2] ?? "");
    if (start === undefined || end === undefined) {
      throw invalid(
        index + 1,
        `expected times as HH:MM:SS,mmm such as ${example}; got ${JSON.stringify(lines[index])}`,
      );
    }
    if (end < start) {
      throw invalid(index + 1, `the cue ends (${timing[2]}) before it starts (${timing[1]})`);
    }
    index++;
    const textLines: string[] = [];
    // The text runs to a blank line, or to the next cue when the blank line is missing.
    while (index < lines.length && (lines[index] ?? "").trim()) {
      const next = lines[index] ?? "";
      if (isTiming(next) || (/^\s*\d+\s*$/.test(next) && isTiming(lines[index + 1]))) break;
      textLines.push(next.trimEnd());
      index++;
    }
    cues.push({ index: cues.length, start, end, text: textLines.join("\n") });
  }
  if (cues.length === 0) {
    throw new CaptionsFileError(
      "captions_file_invalid",
      file,
      `${file} has no captions: expected SRT cues such as "1", ${example}, then the text`,
    );
  }
  return cues;
}

/**
 * Read an SRT file (UTF-8) into cues; a file that is missing, unreadable or not UTF-8 is a
 * {@link CaptionsFileError} with code `captions_file_unreadable`, one that is not SRT has
 * code `captions_file_invalid` and the line.
 *
 * @example
 * const cues = await readSrtFile("captions.srt");
 */
export async function readSrtFile(file: string): Promise<CaptionCue[]> {
  const absolute = path.resolve(file);
  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "there is no such file"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES"
            ? "permission denied"
            : String((error as Error).message);
    throw new CaptionsFileError(
      "captions_file_unreadable",
      absolute,
      `Cannot read the subtitle file ${absolute}: ${why}. Give the path of an SRT file.`,
      { cause: error },
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new CaptionsFileError(
      "captions_file_unreadable",
      absolute,
      `${absolute} is not UTF-8 text; save the subtitles as UTF-8 SRT`,
      { cause: error },
    );
  }
  return parseSrt(text, absolute);
}
