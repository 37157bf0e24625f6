import type { RunOptions } from "../run-options.js";

/** The run options a run keeps in its journal (those given), for its later sessions. */
const JOURNALED = [
  "cache",
  "concurrency",
  "slots",
  "accountLimits",
  "maxCredits",
  "allowPartial",
  "autoApprove",
  "resubmitLostJobs",
] as const;

/**
 * The options given that a run journals, and what the caller keeps with them.
 * @example journaledOptions({ maxCredits: 10, keep: { notify: "x" } }) // { maxCredits: 10, notify: "x" }
 */
export function journaledOptions(options: RunOptions): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of JOURNALED) if (options[name] !== undefined) kept[name] = options[name];
  if (options.keep) Object.assign(kept, options.keep);
  return kept;
}

/**
 * The options of a later session: the journaled ones where it gives none, `keep` as given.
 * @example withJournaled({}, { maxCredits: 10 }) // { maxCredits: 10 }
 */
export function withJournaled(options: RunOptions, journaled: Record<string, unknown>): RunOptions {
  const merged: Record<string, unknown> = { ...options };
  for (const name of JOURNALED) {
    if (merged[name] === undefined && journaled[name] !== undefined) merged[name] = journaled[name];
  }
  if (options.keep) merged.keep = options.keep;
  return merged as RunOptions;
}
