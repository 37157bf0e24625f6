import { formatDuration } from "./format-summary.js";
import type { LoggedEvent } from "./run-digest.js";

/**
 * One line of the job's log for an event worth seeing while a run goes on (the CLI's NDJSON
 * goes to a file): the start, each step's end, failure or skip, failed items, the budget,
 * and the end; of a batch, its start, each row's end or skip, and its end (not its rows'
 * steps). `undefined` for the rest.
 *
 * @example
 * logLine({ type: "step.end", step: "clips", durationMs: 1200 }); // "✓ clips (1.2 s)"
 */
export function logLine(event: LoggedEvent): string | undefined {
  // A batch's rows: one line as each ends, not every step of every row.
  if (typeof event.row === "string" && !event.type.startsWith("batch.")) return undefined;
  const step = typeof event.step === "string" ? event.step : "";
  const message = (value: unknown) =>
    value &&
    typeof value === "object" &&
    typeof (value as { message?: unknown }).message === "string"
      ? (value as { message: string }).message
      : "";
  switch (event.type) {
    case "run.start":
      return `reelsmith: ${String(event.name)} ${event.resumed ? "resumed" : "started"} in ${String(event.runDir)}`;
    case "step.end": {
      const how = event.reused ? ", reused" : event.cached ? ", from cache" : "";
      const duration = typeof event.durationMs === "number" ? formatDuration(event.durationMs) : "";
      return `✓ ${step} (${duration}${how})`;
    }
    case "step.fail":
      return `✗ ${step}: ${message(event.error)}`;
    case "step.skip":
      return `- ${step} skipped: ${String(event.reason ?? "")}`;
    case "item.end":
      return event.status === "failed"
        ? `✗ ${step}[${String(event.index)}]: ${message(event.error)}`
        : undefined;
    case "budget.reached":
      // Below its figure, the budget stopped because the next price did not fit beside what
      // requests in flight hold: "0 of 10" alone read as a budget reached with nothing spent.
      return Number(event.credits) < Number(event.maxCredits)
        ? `credit budget reached: ${String(event.credits)} of ${String(event.maxCredits)} spent, and the next paid request's price did not fit in the rest; no new paid request`
        : `credit budget reached: ${String(event.credits)} of ${String(event.maxCredits)}; no new video job`;
    case "run.end": {
      const credits = (event.totals as { credits?: unknown } | undefined)?.credits;
      return `reelsmith: run ${String(event.status)}${typeof credits === "number" ? `, ${credits} credits` : ""}`;
    }
    case "batch.start":
      return `reelsmith: batch ${String(event.name)} ${event.resumed ? "resumed" : "started"} in ${String(event.batchDir)}, ${String(event.rows)} rows`;
    case "batch.row.end": {
      const mark = event.status === "succeeded" ? "✓" : "✗";
      const duration = typeof event.durationMs === "number" ? formatDuration(event.durationMs) : "";
      const error = typeof event.error === "string" && event.error ? `: ${event.error}` : "";
      return `${mark} row ${String(event.row)} ${String(event.status)} (${String(event.credits)} credits, ${duration})${error}`;
    }
    case "batch.row.skipped":
      return `- row ${String(event.row)} skipped: ${String(event.message)}`;
    case "batch.end":
      return `reelsmith: batch ${String(event.status)}, ${String(event.credits)} credits`;
    default:
      return undefined;
  }
}
