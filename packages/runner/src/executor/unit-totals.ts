import { emptyTotals, type RunTotals } from "../events/run-event.js";

/**
 * The spending of one unit of work read from its outputs: chat `usage` tokens and video
 * `credits`. A unit served from the cache or reused by resume spent nothing in this run.
 * @example totalsOfOutputs({ usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })
 */
export function totalsOfOutputs(kind: string, outputs: Record<string, unknown>): RunTotals {
  const totals = emptyTotals();
  const usage = outputs.usage as Record<string, unknown> | undefined;
  if (usage && typeof usage === "object") {
    totals.promptTokens = Number(usage.prompt_tokens ?? 0) || 0;
    totals.completionTokens = Number(usage.completion_tokens ?? 0) || 0;
    totals.totalTokens =
      Number(usage.total_tokens ?? 0) || totals.promptTokens + totals.completionTokens;
  }
  if (typeof outputs.credits === "number") totals.credits = outputs.credits;
  if (kind === "video") totals.videos = 1;
  return totals;
}
