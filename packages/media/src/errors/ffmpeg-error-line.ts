/** Lines ffmpeg prints after the real problem, saying only that it stopped. */
const TRAILER =
  /^(conversion failed!?|error opening filters!?|error initializing complex filters\.?|error opening output files?.*|exiting normally.*|error while filtering.*|error reinitializing filters!?|failed to (?:inject|configure) .*|error while processing the decoded data.*)$/i;

/** Words of a line that says what went wrong. */
const PROBLEM =
  /(error|invalid|unable|cannot|can't|could not|no such|not found|failed|does not|doesn't|unknown|mismatch|unsupported|too (?:many|few|large|small)|not (?:a|an|supported|allowed)|denied|refused|corrupt|truncated|missing)/i;

/** `[Parsed_subtitles_0 @ 0x55d1…] ` and `[mp4 @ 0x…] ` prefixes name an internal object. */
const OBJECT_PREFIX = /^\[[^\]]+ @ (?:0x)?[0-9a-f]+\]\s*/i;

/**
 * The one line of ffmpeg's output that says what went wrong: the first line that names a
 * problem and is not one of the trailers ffmpeg prints after it ("Conversion failed!"), with
 * the internal object prefix left out; else the last line that is not a trailer or progress.
 *
 * @example
 * ffmpegErrorLine("…\n[Parsed_subtitles_0 @ 0x1] Unable to open /tmp/x.srt\nError opening filters!\n");
 * // "Unable to open /tmp/x.srt"
 */
export function ffmpegErrorLine(output: string): string | undefined {
  const lines = output
    .split(/\r?\n|\r/)
    .map((line) => line.replace(OBJECT_PREFIX, "").trim())
    .filter((line) => line !== "" && !/^(frame|size)=/.test(line));
  const meaningful = lines.filter((line) => !TRAILER.test(line));
  return meaningful.find((line) => PROBLEM.test(line)) ?? meaningful.at(-1) ?? lines.at(-1);
}
