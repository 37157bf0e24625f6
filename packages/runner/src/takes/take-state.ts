import type { Artifact } from "../executor/artifacts.js";
import type { JournalRecord } from "../journal/journal-record.js";
import {
  type ItemState,
  type RecordFolder,
  SINGLE_ITEM,
  type StepState,
  type TakeHistory,
  type TakeState,
} from "../journal/journal-state.js";

/** The record types of takes in `journal.jsonl`. */
export const TAKE_RECORDS = ["take.start", "take", "take.pick"] as const;

/**
 * The state of one unit the way takes see it: a fan-out item's own state; for a plain step,
 * its step's outputs and artifacts (a plain step journals no item records).
 */
function unitView(step: StepState, item: ItemState, index: number): TakeState {
  const plain = index === SINGLE_ITEM;
  // A skipped step made nothing; a gate still waiting has not finished.
  const status = plain
    ? step.status === "skipped"
      ? "failed"
      : step.status === "waiting"
        ? "running"
        : step.status
    : item.status;
  const outputs = plain ? (step.outputs as Record<string, unknown> | undefined) : item.outputs;
  const artifacts = plain ? step.artifacts : item.artifacts;
  const error = plain ? step.error : item.error;
  return {
    take: item.takes?.picked ?? 1,
    status,
    request: item.takes?.takes.get(item.takes.picked)?.request ?? {},
    ...(outputs ? { outputs } : {}),
    ...(artifacts ? { artifacts } : {}),
    ...(error ? { error } : {}),
    ...(item.totals ? { totals: item.totals } : {}),
    facts: item.facts,
  };
}

/** Puts a take's state into the unit (and its plain step), as the picked one. */
function load(step: StepState, item: ItemState, index: number, take: TakeState): void {
  item.status = take.status;
  item.outputs = take.outputs;
  item.artifacts = take.artifacts;
  item.error = take.error;
  item.totals = take.totals;
  item.facts = { ...take.facts };
  if (index === SINGLE_ITEM) {
    step.outputs = take.outputs;
    step.artifacts = take.artifacts;
    step.error = take.error;
  }
  // The step is made again from its items: what depends on it is rebuilt.
  step.status = "running";
}

/**
 * The current take of a unit, with its live state merged over what was recorded of it.
 * @example currentTake(step, item, 2).status // "succeeded"
 */
export function currentTake(step: StepState, item: ItemState, index: number): TakeState {
  const live = unitView(step, item, index);
  const recorded = item.takes?.takes.get(live.take);
  return recorded ? { ...recorded, ...live, kept: recorded.kept ?? live.kept } : live;
}

/**
 * Every take of a unit in order, the picked one with its live state.
 * @example takesOf(step, item, 1).map((take) => take.take) // [1, 2]
 */
export function takesOf(step: StepState, item: ItemState, index: number): TakeState[] {
  const current = currentTake(step, item, index);
  const all = new Map(item.takes?.takes ?? []);
  all.set(current.take, current);
  return [...all.values()].sort((a, b) => a.take - b.take);
}

/**
 * Replays one take record into its step and unit (through {@link takeRecords}):
 * - `take.start` leaves the picked take as it was and makes a new one the unit's: no
 *   outputs, no facts (its kind submits anew), the request's changes kept for it;
 * - `take` says where a take's files are kept (and its job, prompt);
 * - `take.pick` makes a kept take the unit's again (its outputs, files' hashes and facts).
 * Both `take.start` and `take.pick` leave the step to be made again from its items.
 */
export function replayTakeRecord(step: StepState, item: ItemState, record: JournalRecord): void {
  const index = typeof record.index === "number" ? record.index : SINGLE_ITEM;
  const take = Number(record.take);
  if (!Number.isInteger(take) || take < 1) return;
  const history: TakeHistory = item.takes ?? { picked: 1, takes: new Map() };
  item.takes = history;
  const leave = () => {
    const left = currentTake(step, item, index);
    history.takes.set(left.take, left);
  };
  const prompt = typeof record.prompt === "string" ? { prompt: record.prompt } : {};
  if (record.type === "take.start") {
    leave();
    const request = (record.request ?? {}) as Record<string, unknown>;
    const started: TakeState = { take, status: "running", request, ...prompt, facts: {} };
    history.takes.set(take, started);
    history.picked = take;
    load(step, item, index, started);
  } else if (record.type === "take") {
    const known =
      take === history.picked ? currentTake(step, item, index) : history.takes.get(take);
    history.takes.set(take, {
      ...(known ?? { take, status: "succeeded", request: {}, facts: {} }),
      ...prompt,
      kept: (record.files ?? {}) as Record<string, Artifact>,
      ...(typeof record.jobId === "string" ? { jobId: record.jobId } : {}),
    });
  } else if (record.type === "take.pick") {
    if (!history.takes.has(take) && take !== history.picked) return;
    leave();
    const chosen = history.takes.get(take);
    if (!chosen) return;
    history.picked = take;
    load(step, item, index, chosen);
  }
}

/**
 * The takes' own journal records, folded by the takes (the journal's replay is given this
 * folder; it does not know what a take is).
 * @example foldJournal(records, [takeRecords]).steps.get("clips")?.items.get(1)?.takes?.picked // 2
 */
export const takeRecords: RecordFolder = { types: TAKE_RECORDS, fold: replayTakeRecord };
