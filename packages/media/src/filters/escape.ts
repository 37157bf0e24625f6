/**
 * Escape a value for use as a filter option inside a filtergraph (both levels of ffmpeg's
 * filtergraph escaping: the option value, then the graph description), e.g. a file path
 * given to `drawtext=fontfile=` or `subtitles=filename=`.
 *
 * @example
 * `subtitles=filename=${escapeFilterValue("/tmp/it's: [a].srt")}`
 */
export function escapeFilterValue(value: string): string {
  const optionLevel = value.replace(/[\\':]/g, (character) => `\\${character}`);
  return optionLevel.replace(/[\\'[\],;]/g, (character) => `\\${character}`);
}

/**
 * One line of an ffmpeg concat demuxer list: `file '<path>'`, with `'` written as `'\''`.
 * Newlines cannot be represented in the list format and are rejected.
 *
 * @example
 * concatListLine("/clips/it's a clip.mp4"); // "file '/clips/it'\\''s a clip.mp4'"
 */
export function concatListLine(file: string): string {
  if (/[\r\n]/.test(file)) {
    throw new TypeError(`File names with line breaks cannot be joined: ${JSON.stringify(file)}`);
  }
  return `file '${file.replace(/'/g, "'\\''")}'`;
}

/**
 * Parse a size such as `1280x720` into numbers; both must be positive and even (H.264 4:2:0).
 *
 * @example
 * parseSize("1280x720"); // { width: 1280, height: 720 }
 */
export function parseSize(size: string): { width: number; height: number } {
  const match = /^(\d+)x(\d+)$/.exec(size.trim());
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width <= 0 || height <= 0 || width % 2 !== 0 || height % 2 !== 0) {
    throw new TypeError(
      `Expected \`size\` as WIDTHxHEIGHT with even numbers, e.g. 1280x720; got ${JSON.stringify(size)}`,
    );
  }
  return { width, height };
}
