import { TakeError } from "../errors/take-error.js";
import type { RunEvent } from "../events/run-event.js";
import type { FocusedSession, LoadedRun, OpenedRun, SessionRun } from "../executor/run-session.js";
import type { RunState, TakeState } from "../journal/journal-state.js";
import type { RunOptions, RunResult } from "../run-options.js";
import { streamFocused } from "./focused-stream.js";
import { keepTake } from "./keep-take.js";
import { damagedTakeFiles, placeTakeFiles } from "./take-files.js";
import { currentTake, takesOf } from "./take-state.js";
import { findTakeUnit, type TakeTarget, type TakeUnit, takeUnitOf, unitAt } from "./take-unit.js";

/** Which take of a unit later steps use. */
export interface PickRequest extends TakeTarget {
  /** The take's number: 1 for what the run first made, 2… for each retake. */
  take: number;
}

function label(unit: TakeUnit): string {
  return unit.index === undefined ? `\`${unit.step.id}\`` : `\`${unit.step.id}\` #${unit.index}`;
}

/** The take to pick as the journal has it now; throws when it cannot be picked. */
async function planPick(state: RunState, unit: TakeUnit, wanted: number): Promise<TakeState> {
  const target = {
    step: unit.step.id,
    ...(unit.index === undefined ? {} : { index: unit.index }),
    take: wanted,
  };
  const at = unitAt(state, unit.step.id, unit.index);
  if (!at)
    throw new TakeError("unit_not_run", unit.runDir, `${label(unit)} has not run yet`, target);
  const current = currentTake(at.stepState, at.item, at.key);
  const takes = takesOf(at.stepState, at.item, at.key);
  const chosen = takes.find((take) => take.take === wanted);
  if (!chosen) {
    const numbers = takes.map((take) => take.take);
    const has = numbers.length === 1 ? "one take (1)" : `takes ${numbers.join(", ")}`;
    throw new TakeError(
      "unknown_take",
      unit.runDir,
      `${label(unit)} has ${has}, take ${current.take} picked; there is no take ${wanted}`,
      target,
    );
  }
  if (chosen.status !== "succeeded") {
    throw new TakeError(
      "take_not_made",
      unit.runDir,
      `take ${wanted} of ${label(unit)} was not made (${chosen.error?.message ?? "it did not finish"}); pick another take`,
      target,
    );
  }
  const job = unit.kind.heldJob?.(current.facts);
  if (wanted !== current.take && current.status === "running" && job) {
    throw new TakeError(
      "take_in_progress",
      unit.runDir,
      `take ${current.take} of ${label(unit)} is still being made (job ${job.id}): finish it with \`reelsmith resume ${unit.runDir}\` first`,
      target,
    );
  }
  if (wanted !== current.take) {
    const damaged = chosen.kept ? await damagedTakeFiles(unit.runDir, chosen.kept) : ["its files"];
    if (damaged.length > 0) {
      throw new TakeError(
        "take_files_changed",
        unit.runDir,
        `take ${wanted} of ${label(unit)} cannot be put back: ${damaged.join(", ")} ${damaged.length === 1 ? "is" : "are"} gone or changed since it was kept`,
        target,
      );
    }
  }
  return chosen;
}

/**
 * The checks a pick makes before anything is written (the run, its step, item and take, the
 * take's kept files): throws TakeError (or ResumeError for a directory that is not a run). A
 * run already opened (`openRun`) is checked as it was read then.
 * @example await checkPick("runs/x", { step: "clips", index: 1, take: 1 });
 */
export async function checkPick(
  run: string | OpenedRun,
  request: PickRequest,
  options: Pick<RunOptions, "stepKinds"> = {},
): Promise<void> {
  const unit =
    typeof run === "string"
      ? await findTakeUnit(run, request, { ...options, validate: false })
      : takeUnitOf(run, request, options);
  await preparePick(unit, request);
}

async function preparePick(unit: TakeUnit, request: PickRequest): Promise<TakeUnit> {
  if (!Number.isInteger(request.take) || request.take < 1) {
    throw new TakeError(
      "unknown_take",
      unit.runDir,
      `a take is a whole number from 1, got ${request.take}`,
      request,
    );
  }
  await planPick(unit.onDisk.state, unit, request.take);
  return unit;
}

/** The session of a pick: the take's files go back in place, then what depends on it is rebuilt. */
async function pickSession(
  loaded: LoadedRun,
  request: PickRequest,
  options: RunOptions,
): Promise<FocusedSession> {
  const unit = await preparePick(takeUnitOf(loaded, request, options), request);
  return {
    focus: { step: unit.step.id, ...(unit.index === undefined ? {} : { index: unit.index }) },
    paid: false,
    async begin(run: SessionRun) {
      const chosen = await planPick(run.state, unit, request.take);
      const at = unitAt(run.state, unit.step.id, unit.index);
      if (!at) return;
      // The picked take so far is kept first, so that it can be picked back.
      const current = currentTake(at.stepState, at.item, at.key);
      if (current.status === "succeeded" && !current.kept) await keepTake(run, unit, current);
      // Files in place before the record: a kill in between leaves the old take's record,
      // whose files no longer match, and a resume fetches them again from its job.
      if (chosen.kept && chosen.artifacts) {
        placeTakeFiles(run.runDir, chosen.kept, chosen.artifacts);
      }
      await run.journal.append({
        type: "take.pick",
        step: unit.step.id,
        ...(unit.index === undefined ? {} : { index: unit.index }),
        take: chosen.take,
      });
      run.emit({
        type: "log",
        level: "info",
        step: unit.step.id,
        message: `take ${chosen.take} of ${label(unit)} is picked (was take ${current.take})`,
      });
    },
  };
}

/**
 * Chooses which take of a retaken unit later steps use: its kept files are copied back to the
 * pipeline's paths, the pick is journaled, and what depends on the unit is rebuilt (ffmpeg
 * runs again; no job is paid for). Refuses (TakeError) an unknown take, one that was not made,
 * and one whose kept files are gone or changed.
 * @example
 * const result = await pickTake("runs/20260101-120000-storyboard", { step: "clips", index: 1, take: 1 });
 */
export function pickTake(
  runDir: string | OpenedRun,
  request: PickRequest,
  options: RunOptions = {},
): Promise<RunResult> {
  return streamPick(runDir, request, options).result;
}

/**
 * {@link pickTake}, yielding the run's events as they happen.
 * @example for await (const event of streamPick(runDir, { step: "clips", index: 1, take: 1 })) console.log(event.type);
 */
export function streamPick(
  runDir: string | OpenedRun,
  request: PickRequest,
  options: RunOptions = {},
): AsyncIterable<RunEvent> & { result: Promise<RunResult> } {
  return streamFocused(runDir, (loaded) => pickSession(loaded, request, options), options);
}
