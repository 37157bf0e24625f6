/** A stretch of a transcript. */
export interface TranscriptSegment {
  text: string;
  start: number;
  end: number;
}

function clock(seconds: number, separator: "," | "."): string {
  const milliseconds = Math.round(seconds * 1000);
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor((milliseconds % 3_600_000) / 60_000);
  const secs = Math.floor((milliseconds % 60_000) / 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}${separator}${pad(milliseconds % 1000, 3)}`;
}

/**
 * Segments as SubRip (`srt`) text.
 *
 * @example
 * toSrt([{ text: "Hello.", start: 0.15, end: 0.6 }]); // "1\n00:00:00,150 --> 00:00:00,600\nHello.\n"
 */
export function toSrt(segments: readonly TranscriptSegment[]): string {
  return segments
    .map(
      (segment, index) =>
        `${index + 1}\n${clock(segment.start, ",")} --> ${clock(segment.end, ",")}\n${segment.text}\n`,
    )
    .join("\n");
}

/**
 * Segments as WebVTT text.
 *
 * @example
 * toVtt([{ text: "Hello.", start: 0.15, end: 0.6 }]); // "WEBVTT\n\n00:00:00.150 --> 00:00:00.600\nHello.\n"
 */
export function toVtt(segments: readonly TranscriptSegment[]): string {
  return `WEBVTT\n\n${segments
    .map(
      (segment) => `${clock(segment.start, ".")} --> ${clock(segment.end, ".")}\n${segment.text}\n`,
    )
    .join("\n")}`;
}
