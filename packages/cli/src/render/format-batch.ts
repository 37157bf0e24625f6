import type { BatchEvent } from "@reelsmith/runner/batch";
import { displayPath } from "./display-path.js";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The plain lines of a batch's event (none for most of its rows' own events: a row's run is
 * followed in its report).
 * @example formatBatchEvent({ type: "batch.row.skipped", row: "r-1", line: 3, reason: "budget", message: "…" }, cwd)
 */
export function formatBatchEvent(event: BatchEvent, cwd: string): string[] {
  switch (event.type) {
    case "batch.start": {
      const { estimate } = event;
      const budget = event.maxCredits === undefined ? "" : ` (budget ${event.maxCredits})`;
      const cost = estimate.complete
        ? `${estimate.credits} credits`
        : `at least ${estimate.credits} credits${estimate.creditsAtMost === undefined ? "" : `, at most ${estimate.creditsAtMost}`}`;
      return [
        `batch ${displayPath(event.batchDir, cwd)}: ${event.rows} rows${event.finished ? ` (${event.finished} finished, not run again)` : ""}; expected cost of the rest: ${cost}${budget}${event.spent ? `; spent before: ${event.spent}` : ""}`,
      ];
    }
    case "batch.row.start":
      return [`[${event.row}] ${event.resumed ? "resumed" : "started"} (line ${event.line})`];
    case "batch.row.end":
      return [
        `[${event.row}] ${event.status} · ${event.credits} credits · ${seconds(event.durationMs)}${event.final ? ` · ${displayPath(event.final, cwd)}` : ""}${event.error ? ` · ${event.error}` : ""}`,
      ];
    case "batch.row.skipped":
      return [`[${event.row}] not started: ${event.message}`];
    case "batch.log":
      return [`warning: ${event.message}`];
    case "batch.end": {
      const counts = Object.entries(event.counts)
        .map(([status, n]) => `${n} ${status}`)
        .join(" · ");
      return [
        `batch ${event.status}: ${counts} · ${event.credits} credits · ${seconds(event.durationMs)}`,
      ];
    }
    default:
      if (event.type === "log" && (event.level === "warn" || event.level === "error"))
        return [`[${event.row}] ${event.level}: ${event.message}`];
      return [];
  }
}
