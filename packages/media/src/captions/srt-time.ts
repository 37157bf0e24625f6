/**
 * Seconds as an SRT time, `HH:MM:SS,mmm`, rounded to the millisecond (hours grow past two
 * digits rather than wrap).
 *
 * @example
 * formatSrtTime(3723.4567); // "01:02:03,457"
 */
export function formatSrtTime(seconds: number): string {
  if (!(Number.isFinite(seconds) && seconds >= 0)) {
    throw new TypeError(`Expected a non-negative number of seconds; got ${seconds}`);
  }
  const total = Math.round(seconds * 1000);
  const milliseconds = total % 1000;
  const wholeSeconds = Math.floor(total / 1000);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${two(Math.floor(wholeSeconds / 3600))}:${two(Math.floor(wholeSeconds / 60) % 60)}:${two(wholeSeconds % 60)},${String(milliseconds).padStart(3, "0")}`;
}

/** `H:MM:SS,mmm` (hours and minutes optional, `,` or `.` before the milliseconds). */
const timePattern = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?$/;

/**
 * An SRT time in seconds, or `undefined` when it is not one. The digits after the comma are
 * read as a number of milliseconds, as ffmpeg reads them (`00:00:02,5` is 2.005 s), and
 * minutes and seconds must be below 60.
 *
 * @example
 * parseSrtTime("01:02:03,457"); // 3723.457
 */
export function parseSrtTime(text: string): number | undefined {
  const match = timePattern.exec(text.trim());
  if (!match) return undefined;
  const [hours, minutes, seconds, milliseconds] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  if ((minutes ?? 0) >= 60 || (seconds ?? 0) >= 60) return undefined;
  return (
    ((hours ?? 0) * 3600_000 +
      (minutes ?? 0) * 60_000 +
      (seconds ?? 0) * 1000 +
      (milliseconds ?? 0)) /
    1000
  );
}
