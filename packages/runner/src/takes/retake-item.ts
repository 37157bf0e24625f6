import { dirname } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { TakeError } from "../errors/take-error.js";
import type { RunEvent } from "../events/run-event.js";
import type { FocusedSession, LoadedRun, OpenedRun, SessionRun } from "../executor/run-session.js";
import { journaledUnitRequest } from "../executor/unit-request.js";
import type { RunState } from "../journal/journal-state.js";
import type { RunOptions, RunResult } from "../run-options.js";
import { streamFocused } from "./focused-stream.js";
import { keepTake } from "./keep-take.js";
import { promptOf, withTakeRequest } from "./take-request.js";
import { currentTake, takesOf } from "./take-state.js";
import { findTakeUnit, type TakeTarget, type TakeUnit, takeUnitOf, unitAt } from "./take-unit.js";

/**
 * What a retake changes in its unit's request, over the picked take's (nothing: the same
 * request, a new result).
 */
export interface RetakeRequest extends TakeTarget {
  /** A new prompt instead of the step's. */
  prompt?: string;
  /** Params merged over the step's (`seed`, `negative_prompt`…): each replaces the step's own. */
  params?: Record<string, unknown>;
}

/**
 * A new take (asked with the picked take's request and the changes over it), or the one a
 * stopped retake left to finish.
 */
type RetakePlan = { action: "new" | "continue"; take: number; request: Record<string, unknown> };

function label(unit: TakeUnit): string {
  return unit.index === undefined ? `\`${unit.step.id}\`` : `\`${unit.step.id}\` #${unit.index}`;
}

/** What the retake changes, checked against the fields the step's kind has. */
async function changesOf(unit: TakeUnit, request: RetakeRequest): Promise<Record<string, unknown>> {
  const changes: Record<string, unknown> = {};
  if (request.prompt !== undefined) {
    if (typeof request.prompt !== "string" || request.prompt.trim() === "") {
      throw new TakeError("bad_request", unit.runDir, "a new prompt cannot be empty", request);
    }
    changes.prompt = request.prompt;
  }
  if (request.params !== undefined && Object.keys(request.params).length > 0) {
    changes.params = { ...request.params };
  }
  const schema = (await unit.kind.schema()) as { properties?: Record<string, unknown> };
  for (const field of Object.keys(changes)) {
    if (schema.properties && !(field in schema.properties)) {
      throw new TakeError(
        "bad_request",
        unit.runDir,
        `${label(unit)} is a \`${unit.kind.kind}\` step, which has no \`${field}\` to change`,
        request,
      );
    }
  }
  return changes;
}

/** What a retake does with the unit as the journal has it now; throws when it cannot. */
function planRetake(state: RunState, unit: TakeUnit, changes: Record<string, unknown>): RetakePlan {
  const at = unitAt(state, unit.step.id, unit.index);
  const target = { step: unit.step.id, ...(unit.index === undefined ? {} : { index: unit.index }) };
  if (!at)
    throw new TakeError("unit_not_run", unit.runDir, `${label(unit)} has not run yet`, target);
  const current = currentTake(at.stepState, at.item, at.key);
  const takes = takesOf(at.stepState, at.item, at.key);
  const next = Math.max(...takes.map((take) => take.take)) + 1;
  // A new take starts from the last take that was made: a failed one is never its base.
  const base =
    current.status === "succeeded" || current.take === 1
      ? current
      : (takes.filter((take) => take.status === "succeeded").at(-1) ?? { request: {} });
  const request = withTakeRequest(base.request, changes);
  // A retake stopped before its end (killed, failed) goes on when asked again with changes it
  // already has: its journaled job is re-attached, never paid twice.
  if (
    current.take > 1 &&
    !current.kept &&
    isDeepStrictEqual(withTakeRequest(current.request, changes), current.request)
  ) {
    return { action: "continue", take: current.take, request };
  }
  if (current.status === "succeeded") return { action: "new", take: next, request };
  if (current.take === 1) {
    throw new TakeError(
      "unit_not_made",
      unit.runDir,
      `${label(unit)} has no result to retake (${current.error?.message ?? "it did not finish"}); \`reelsmith resume ${unit.runDir}\` makes it again`,
      target,
    );
  }
  const job = unit.kind.heldJob?.(current.facts);
  if (current.status === "running" && job) {
    throw new TakeError(
      "take_in_progress",
      unit.runDir,
      `take ${current.take} of ${label(unit)} is still being made (job ${job.id}): finish it with the same retake or \`reelsmith resume ${unit.runDir}\`, then retake again`,
      { ...target, take: current.take },
    );
  }
  return { action: "new", take: next, request };
}

/**
 * The checks a retake makes before anything is written or sent (the run, its step and item,
 * what it changes, an earlier retake still being made): throws TakeError (or ResumeError for
 * a directory that is not a run). The pipeline is not validated again here. A run already
 * opened (`openRun`) is checked as it was read then.
 * @example await checkRetake("runs/x", { step: "clips", index: 1, prompt: "…" });
 */
export async function checkRetake(
  run: string | OpenedRun,
  request: RetakeRequest,
  options: Pick<RunOptions, "catalogs" | "stepKinds"> = {},
): Promise<void> {
  const unit =
    typeof run === "string"
      ? await findTakeUnit(run, request, { ...options, validate: false })
      : takeUnitOf(run, request, options);
  await prepareRetake(unit, request, options);
}

async function prepareRetake(
  unit: TakeUnit,
  request: RetakeRequest,
  options: Pick<RunOptions, "catalogs">,
): Promise<{ unit: TakeUnit; changes: Record<string, unknown> }> {
  const changes = await changesOf(unit, request);
  const plan = planRetake(unit.onDisk.state, unit, changes);
  await checkTakeRequest(unit, plan.request, options ?? {});
  return { unit, changes };
}

/**
 * The retake's request checked as its run will check it before sending (files, params against
 * the model, the prompt's length), before anything is journaled: a request that would be
 * refused is a TakeError now, and never becomes a take.
 */
async function checkTakeRequest(
  unit: TakeUnit,
  changes: Record<string, unknown>,
  options: Pick<RunOptions, "catalogs">,
): Promise<void> {
  if (!unit.kind.checkRequest) return;
  const start = unit.onDisk.start;
  const request = journaledUnitRequest(
    {
      spec: unit.pipeline.spec,
      state: unit.onDisk.state,
      step: unit.step,
      kind: unit.kind,
      ...(unit.index === undefined ? {} : { index: unit.index }),
      inputs: (start.inputs as Record<string, unknown> | undefined) ?? {},
      run: { id: unit.onDisk.runId, dir: unit.runDir, name: String(start.name ?? "") },
    },
    changes,
  );
  if (!request) return;
  const pipelineDir =
    unit.pipeline.path === "<inline>" ? process.cwd() : dirname(unit.pipeline.path);
  try {
    await unit.kind.checkRequest(request, {
      pipelineDir,
      catalogs: options.catalogs,
    });
  } catch (error) {
    const target = {
      step: unit.step.id,
      ...(unit.index === undefined ? {} : { index: unit.index }),
    };
    throw new TakeError(
      "bad_request",
      unit.runDir,
      `the new take of ${label(unit)} would be refused: ${(error as Error).message}; nothing was written or sent`,
      target,
    );
  }
}

/** The session of a retake: it journals the new take, then the run makes it and what depends on it. */
async function retakeSession(
  loaded: LoadedRun,
  request: RetakeRequest,
  options: RunOptions,
): Promise<FocusedSession> {
  const { unit, changes } = await prepareRetake(
    takeUnitOf(loaded, request, options),
    request,
    options,
  );
  return {
    focus: { step: unit.step.id, ...(unit.index === undefined ? {} : { index: unit.index }) },
    paid: true,
    async begin(run: SessionRun) {
      const plan = planRetake(run.state, unit, changes);
      const at = unitAt(run.state, unit.step.id, unit.index);
      if (!at) return;
      if (plan.action === "continue") {
        run.emit({
          type: "log",
          level: "info",
          step: unit.step.id,
          message: `take ${plan.take} of ${label(unit)} goes on where it stopped`,
        });
        return;
      }
      // The picked take is kept beside its path first: the new one will be written there.
      const current = currentTake(at.stepState, at.item, at.key);
      if (current.status === "succeeded" && !current.kept) await keepTake(run, unit, current);
      const prompt = promptOf(
        journaledUnitRequest(
          {
            spec: run.spec,
            state: run.state,
            step: unit.step,
            kind: unit.kind,
            ...(unit.index === undefined ? {} : { index: unit.index }),
            inputs: run.inputs,
            run: { id: run.runId, dir: run.runDir, name: run.name },
          },
          plan.request,
        ),
      );
      await run.journal.append({
        type: "take.start",
        step: unit.step.id,
        ...(unit.index === undefined ? {} : { index: unit.index }),
        take: plan.take,
        request: plan.request,
        ...(prompt === undefined ? {} : { prompt }),
      });
      run.emit({
        type: "log",
        level: "info",
        step: unit.step.id,
        message: `take ${plan.take} of ${label(unit)}: take ${current.take} is kept`,
      });
    },
  };
}

/**
 * Makes a new take of one unit of a finished, failed or budget-stopped run — one item of a
 * fan-out (or a step without `for_each`) — with a new prompt or params if given, then
 * rebuilds what depends on it in the same run directory. It pays for exactly one new job:
 * the cache is not read for it (a new take even for the same request) and its job's
 * idempotency key carries the take's number. The take it replaces is kept beside its path
 * (`clips/scene-1.take-1.mp4`); the pipeline's path holds the new one, the picked take.
 * Everything is journaled: a retake stopped in any way goes on, without paying twice, with
 * `resume` or the same retake. Refuses (TakeError) an unknown step, item, a unit that never
 * succeeded, and a new request while an earlier retake's job is still being made.
 * @example
 * const result = await retakeItem("runs/20260101-120000-storyboard", { step: "clips", index: 1, prompt: "A fox at dawn, wide shot" });
 * if (result.status === "succeeded") console.log(result.outputs.video);
 */
export function retakeItem(
  runDir: string | OpenedRun,
  request: RetakeRequest,
  options: RunOptions = {},
): Promise<RunResult> {
  return streamRetake(runDir, request, options).result;
}

/**
 * {@link retakeItem}, yielding the run's events as they happen.
 * @example
 * const retake = streamRetake(runDir, { step: "clips", index: 1 });
 * for await (const event of retake) console.log(event.type);
 * await retake.result;
 */
export function streamRetake(
  runDir: string | OpenedRun,
  request: RetakeRequest,
  options: RunOptions = {},
): AsyncIterable<RunEvent> & { result: Promise<RunResult> } {
  return streamFocused(runDir, (loaded) => retakeSession(loaded, request, options), options);
}
