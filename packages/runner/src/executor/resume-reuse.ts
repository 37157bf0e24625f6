import { type ItemState, SINGLE_ITEM, type StepState } from "../journal/journal-state.js";
import { artifactsIntact } from "./artifacts.js";
import type { StepSummary } from "./step-summary.js";

/**
 * A step a resumed run takes from its journal instead of running it: it succeeded, what it
 * was made from was reused too (or skipped), and every file it wrote is still there with the
 * same bytes. Else it runs again (its intact items are reused, see {@link reusableItem}).
 * @example if (await reusableStep(previous, dependencies, summaries, runDir)) …
 */
export async function reusableStep(
  previous: StepState | undefined,
  dependencies: readonly string[],
  summaries: Readonly<Record<string, StepSummary>>,
  runDir: string,
): Promise<boolean> {
  if (previous?.status !== "succeeded") return false;
  if (!dependencies.every((d) => summaries[d]?.reused || summaries[d]?.status === "skipped"))
    return false;
  if (previous.items.size === 0 || (previous.items.size === 1 && previous.items.has(SINGLE_ITEM))) {
    return artifactsIntact(previous, runDir);
  }
  for (const item of previous.items.values()) {
    if (item.status === "succeeded" && !(await artifactsIntact(item, runDir))) return false;
  }
  return true;
}

/**
 * An item a resumed step takes from its journal: it succeeded with outputs, and the files it
 * wrote are intact. (A journaled job whose clip is gone is fetched again by the kind, from
 * its journaled facts, without paying again.)
 * @example if (await reusableItem(prior, runDir)) results[i] = prior.outputs;
 */
export async function reusableItem(prior: ItemState | undefined, runDir: string): Promise<boolean> {
  return (
    prior?.status === "succeeded" && prior.outputs !== undefined && artifactsIntact(prior, runDir)
  );
}
