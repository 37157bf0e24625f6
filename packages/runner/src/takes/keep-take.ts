import type { SessionRun } from "../executor/run-session.js";
import { journaledUnitRequest } from "../executor/unit-request.js";
import { type RunState, SINGLE_ITEM, type TakeState } from "../journal/journal-state.js";
import { takeKey } from "../ledger/ledger.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import { kindOf } from "../steps/registry.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import { keepTakeFiles } from "./take-files.js";
import { promptOf } from "./take-request.js";
import { currentTake } from "./take-state.js";

/**
 * Keeps a take: its files are copied to their take's names (`clips/scene-1.take-1.mp4`) and
 * a `take` record says where, with its request, prompt, job and credits (the ledger's sum of
 * what was spent on it). The files at the pipeline's paths stay as they are.
 * @example await keepTake(run, { step, kind, index: 1 }, take);
 */
export async function keepTake(
  run: SessionRun,
  unit: { step: StepSpec; kind: AnyStepKind; index?: number },
  take: TakeState,
): Promise<void> {
  const { step, kind, index } = unit;
  const files = await keepTakeFiles(run.runDir, take.artifacts ?? {}, take.take);
  const prompt =
    take.prompt ??
    promptOf(
      journaledUnitRequest({
        spec: run.spec,
        state: run.state,
        step,
        kind,
        ...(index === undefined ? {} : { index }),
        inputs: run.inputs,
        run: { id: run.runId, dir: run.runDir, name: run.name },
      }),
    );
  const ledger = run.ledger();
  const jobId = kind.heldJob?.(take.facts)?.id;
  await run.journal.append({
    type: "take",
    step: step.id,
    ...(index === undefined ? {} : { index }),
    take: take.take,
    request: take.request,
    ...(prompt === undefined ? {} : { prompt }),
    ...(jobId === undefined ? {} : { jobId }),
    credits: ledger.takes[takeKey(step.id, index, take.take)]?.credits ?? 0,
    ...(files.file ? { file: files.file.path } : {}),
    files,
  });
}

/**
 * True when a replayed run has retaken units.
 * @example if (hasTakes(state)) await keepFinishedTakes(run);
 */
export function hasTakes(state: RunState | undefined): boolean {
  for (const step of state?.steps.values() ?? []) {
    for (const item of step.items.values()) if (item.takes) return true;
  }
  return false;
}

/**
 * Keeps every retake that succeeded and is not kept yet (a retake's session, or a resume
 * that finished one after a kill): each gets its files' copies and its `take` record.
 * @example await keepFinishedTakes(run);
 */
export async function keepFinishedTakes(run: SessionRun): Promise<void> {
  for (const [id, stepState] of run.state.steps) {
    const step = run.spec.steps.find((entry) => entry.id === id);
    const kind = step ? kindOf(step as Record<string, unknown>, run.kinds) : undefined;
    if (!step || !kind) continue;
    for (const [key, item] of stepState.items) {
      if (!item.takes || item.takes.picked < 2) continue;
      const take = currentTake(stepState, item, key);
      if (take.status !== "succeeded" || take.kept) continue;
      await keepTake(run, { step, kind, ...(key === SINGLE_ITEM ? {} : { index: key }) }, take);
    }
  }
}
