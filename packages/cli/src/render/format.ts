/**
 * Human formatting helpers shared by the renderers.
 *
 * @example
 * formatDuration(1530); // "1.5s"
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "-";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  return `${minutes}m${String(rest).padStart(2, "0")}s`;
}

/**
 * Bytes as B, kB or MB.
 *
 * @example
 * formatBytes(1_500_000); // "1.5 MB"
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * A fixed-width progress bar.
 *
 * @example
 * progressBar(3, 6, 10); // "█████░░░░░"
 */
export function progressBar(done: number, total: number, width = 20): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const filled = Math.round(ratio * width);
  return "█".repeat(filled) + "░".repeat(width - filled);
}

/**
 * A step label with its fan-out item, e.g. `clips#2`.
 *
 * @example
 * stepLabel("clips", 2); // "clips#2"
 */
export function stepLabel(step: string, index?: number): string {
  return index === undefined ? step : `${step}#${index}`;
}

/**
 * Render rows as a left-aligned text table (the first row is the header).
 *
 * @example
 * formatTable([["step", "status"], ["clips", "ok"]]);
 */
export function formatTable(rows: string[][], options: { rightAlign?: number[] } = {}): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, cell.length);
    });
  }
  const right = new Set(options.rightAlign ?? []);
  return rows
    .map((row) =>
      row
        .map((cell, column) => {
          const width = widths[column] ?? 0;
          return right.has(column) ? cell.padStart(width) : cell.padEnd(width);
        })
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * The last non-empty line of a text, shortened to `max` characters (for streamed tokens).
 *
 * @example
 * lastLine("a\nhello world", 5); // "…orld"
 */
export function lastLine(text: string, max: number): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const line = (lines[lines.length - 1] ?? "").trim();
  return line.length > max ? `…${line.slice(line.length - max + 1)}` : line;
}

/**
 * The budget's stop in words. Below the budget it stopped because the next request's price
 * did not fit beside what is spent and held by requests in flight: "0 of 10" alone read as
 * a budget reached with nothing spent.
 *
 * @example
 * budgetReachedLine(0, 10); // "budget reached: 0 of 10 credits spent, and the next paid request's price did not fit in the rest (…)"
 */
export function budgetReachedLine(credits: number, maxCredits: number): string {
  return credits >= maxCredits
    ? `budget reached: ${credits} of ${maxCredits} credits`
    : `budget reached: ${credits} of ${maxCredits} credits spent, and the next paid request's price did not fit in the rest (requests in flight hold theirs)`;
}
