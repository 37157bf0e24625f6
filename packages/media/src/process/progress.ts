/** A progress report: percent of the whole output's duration, and the output time reached. */
export interface MediaProgress {
  percent: number;
  timeSeconds: number;
}

/** Receives progress reports. */
export type ProgressListener = (progress: MediaProgress) => void;

/**
 * Turns `out_time=` lines of `ffmpeg -progress pipe:1` into monotonic percentages of a
 * total that may span several ffmpeg runs: each run reports into its own window
 * (`offsetSeconds` .. `offsetSeconds + seconds`) of the whole.
 *
 * @example
 * const tracker = createProgressTracker(onProgress, 12);
 * const onLine = tracker.window(0, 4); // first of three 4 s clips
 */
export function createProgressTracker(
  listener: ProgressListener | undefined,
  totalSeconds: number,
) {
  let last = -1;
  const emit = (timeSeconds: number) => {
    if (!listener) return;
    const total = totalSeconds > 0 ? totalSeconds : 1;
    const clamped = Math.max(0, Math.min(timeSeconds, total));
    const percent = Math.round((clamped / total) * 1000) / 10;
    if (percent <= last) return;
    last = percent;
    listener({ percent, timeSeconds: clamped });
  };
  return {
    /** A line handler for one ffmpeg run whose output covers `seconds` starting at `offsetSeconds`. */
    window(offsetSeconds: number, seconds: number): (line: string) => void {
      return (line: string) => {
        const time = parseProgressTime(line);
        if (time === undefined) return;
        emit(offsetSeconds + Math.min(time, seconds));
      };
    },
    /** Report a point of the whole directly (e.g. the end of a stage). */
    reach(timeSeconds: number): void {
      emit(timeSeconds);
    },
    /** Report completion (100 %). */
    done(): void {
      emit(totalSeconds > 0 ? totalSeconds : 1);
    },
  };
}

/** The output time in seconds from one `-progress` line, if the line carries it. */
export function parseProgressTime(line: string): number | undefined {
  const match = /^out_time=(-?)(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(line.trim());
  if (!match) return undefined;
  if (match[1] === "-") return 0;
  return Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4]);
}

/** The progress tracker returned by {@link createProgressTracker}. */
export type ProgressTracker = ReturnType<typeof createProgressTracker>;
