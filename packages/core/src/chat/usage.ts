import type { Usage } from "./types.js";

/** A zero usage. */
export function emptyUsage(): Usage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
}

/** Adds `more` to `total` (missing counts count as 0) and returns `total`. */
export function addUsage(total: Usage, more: Usage | undefined | null): Usage {
  if (!more) return total;
  total.prompt_tokens += more.prompt_tokens ?? 0;
  total.completion_tokens += more.completion_tokens ?? 0;
  total.total_tokens +=
    more.total_tokens ?? (more.prompt_tokens ?? 0) + (more.completion_tokens ?? 0);
  return total;
}
