import { type ItemState, type StepState, takeKey, takesOf } from "@reelsmith/runner/internal";
import type { Ledger } from "@reelsmith/runner/runs";
import type { TakeView } from "./report-model.js";
import { runFile, thumbnailPath } from "./run-file.js";

const SINGLE_ITEM = -1;

/**
 * Where the thumbnail of one take of a clip goes, relative to the run directory.
 * @example takeThumbnailPath("clips", 1, 2) // "report/thumbs/clips-1.take-2.jpg"
 */
export function takeThumbnailPath(step: string, index: number | undefined, take: number): string {
  return thumbnailPath(step, index).replace(/\.jpg$/, `.take-${take}.jpg`);
}

/**
 * The takes of a retaken clip as its card shows them: each with its own file (where it is
 * kept; the picked one's path until it is), its prompt, its cost from the ledger, and which
 * one is picked, and how many attempts it took (`attemptsOf`).
 * @example takeViews(runDir, "clips", 1, state.steps.get("clips"), item, ledgerOf(journal))
 */
export function takeViews(
  runDir: string,
  step: string,
  index: number | undefined,
  journaled: StepState,
  item: ItemState,
  ledger: Ledger,
  attemptsOf: (take: number) => number = () => 0,
): TakeView[] {
  const picked = item.takes?.picked ?? 1;
  return takesOf(journaled, item, index ?? SINGLE_ITEM).map((take) => {
    const own = take.kept?.file?.path ?? (take.take === picked ? take.outputs?.file : undefined);
    const clip = runFile(runDir, own);
    const figures = ledger.takes[takeKey(step, index, take.take)];
    return {
      take: take.take,
      picked: take.take === picked,
      status: take.status,
      ...(take.prompt === undefined ? {} : { prompt: take.prompt }),
      ...(figures ? { credits: figures.credits } : {}),
      ...(attemptsOf(take.take) > 0 ? { attempts: attemptsOf(take.take) } : {}),
      ...(take.jobId === undefined ? {} : { jobId: take.jobId }),
      ...(clip ? { clip } : {}),
      ...(clip ? { thumbnail: runFile(runDir, takeThumbnailPath(step, index, take.take)) } : {}),
      ...(take.error ? { error: take.error.message } : {}),
    };
  });
}
