import type { RunTotals, SerializedError } from "../events/run-event.js";
import type { Artifact } from "../executor/artifacts.js";
import { knownEntryKey } from "../ledger/unit-ledger.js";
import type { JournalRecord } from "./journal-record.js";

/** What the journal knows about one fan-out item (or the single unit of a plain step). */
export interface ItemState {
  status: "running" | "succeeded" | "failed";
  outputs?: Record<string, unknown>;
  error?: SerializedError;
  totals?: Partial<RunTotals>;
  /** Files the item wrote, with their sha256 (checked before a resume reuses the item). */
  artifacts?: Record<string, Artifact>;
  /** Facts recorded by the step kind (e.g. "video.submitted" → { jobId }), latest wins. */
  facts: Record<string, Record<string, unknown>>;
  /** Its takes, once it was retaken: which one is picked, and the others (`take` records). */
  takes?: TakeHistory;
  /**
   * The ledger entries its kind journaled itself, as `<take>:<key>` (`knownEntryKey`): a
   * resumed or re-run unit neither writes nor counts them again.
   */
  ledger?: Set<string>;
}

/** What the journal knows about one step. */
export interface StepState {
  status: "running" | "succeeded" | "failed" | "skipped" | "waiting";
  /** What a `waiting` step waits for (its `step.wait` record). */
  waiting?: { reason: string; details?: Record<string, unknown> };
  outputs?: unknown;
  /** Files a step without for_each wrote, with their sha256. */
  artifacts?: Record<string, Artifact>;
  error?: SerializedError;
  items: Map<number, ItemState>;
}

/** The state of a run rebuilt from its journal records (replay). */
export interface RunState {
  start?: JournalRecord;
  /**
   * How the run was started (`run.start`'s `options`: cache, concurrency, budget, …), each
   * value as the latest session that gave it (`run.resume`'s `options`) left it.
   */
  options: Record<string, unknown>;
  steps: Map<string, StepState>;
  ended?: JournalRecord;
}

/** One take of an item (a fan-out item, or a plain step's unit), as its journal tells it. */
export interface TakeState {
  /** 1 for what the run first made, then 2, 3… for each retake. */
  take: number;
  status: ItemState["status"];
  /** What this take changed in the item's request (`prompt`, `params`); empty for take 1. */
  request: Record<string, unknown>;
  /** The prompt it was made from, as journaled when it started or was kept. */
  prompt?: string;
  outputs?: Record<string, unknown>;
  /** Files its outputs name, where the pipeline names them (while it is the picked take). */
  artifacts?: Record<string, Artifact>;
  error?: SerializedError;
  totals?: Partial<RunTotals>;
  facts: Record<string, Record<string, unknown>>;
  /** Where its files are kept beside the pipeline's path (`clips/scene-1.take-1.mp4`), by output. */
  kept?: Record<string, Artifact>;
  /** The job that made it, when its kind holds one. */
  jobId?: string;
}

/** An item's takes: which one the pipeline's paths hold, and every take by number. */
export interface TakeHistory {
  /** The picked take (the one later steps read). */
  picked: number;
  /** Every take but the picked one as it was when it was left; the picked one when kept. */
  takes: Map<number, TakeState>;
}

/** Key for the single unit of a step without `for_each`. */
export const SINGLE_ITEM = -1;

/**
 * Folds the journal records of one feature of a run (takes) into the state of the step and
 * unit each names; the journal's replay hands it the records of its types.
 * @example const takeRecords: RecordFolder = { types: ["take.start", "take", "take.pick"], fold: replayTakeRecord };
 */
export interface RecordFolder {
  /** The record types it folds. */
  types: readonly string[];
  fold(step: StepState, item: ItemState, record: JournalRecord): void;
}

/**
 * Replays journal records into the state of each step and item: the journal's own records
 * (run, step, item, ledger, fact), and every other record through the folder given for its
 * type (a record no folder takes is left out). A run's replay is `replayJournal`, which gives
 * the folders of the run's features. Given `state`, the records are folded on into it (the
 * records appended after those it was replayed from).
 * @example const state = foldJournal(readJournal(file), [takeRecords]); state.steps.get("clips")?.items.get(2)
 */
export function foldJournal(
  records: readonly JournalRecord[],
  folders: readonly RecordFolder[],
  state: RunState = { steps: new Map(), options: {} },
): RunState {
  const folderOf = new Map<string, RecordFolder>();
  for (const folder of folders) for (const type of folder.types) folderOf.set(type, folder);
  const stepOf = (id: string): StepState => {
    let step = state.steps.get(id);
    if (!step) {
      step = { status: "running", items: new Map() };
      state.steps.set(id, step);
    }
    return step;
  };
  const itemOf = (record: JournalRecord): ItemState => {
    const step = stepOf(String(record.step));
    const index = typeof record.index === "number" ? record.index : SINGLE_ITEM;
    let item = step.items.get(index);
    if (!item) {
      item = { status: "running", facts: {} };
      step.items.set(index, item);
    }
    return item;
  };
  for (const record of records) {
    switch (record.type) {
      case "run.start":
      case "run.resume":
        if (record.type === "run.start") state.start = record;
        if (record.options && typeof record.options === "object")
          Object.assign(state.options, record.options);
        break;
      case "run.end":
        state.ended = record;
        break;
      case "step.start":
        stepOf(String(record.step)).status = "running";
        break;
      case "step.end": {
        const step = stepOf(String(record.step));
        step.status = "succeeded";
        step.outputs = record.outputs;
        step.artifacts = record.artifacts as Record<string, Artifact> | undefined;
        break;
      }
      case "step.skip":
        stepOf(String(record.step)).status = "skipped";
        break;
      case "step.wait": {
        const step = stepOf(String(record.step));
        step.status = "waiting";
        step.waiting = {
          reason: String(record.reason ?? "waits"),
          ...(record.details && typeof record.details === "object"
            ? { details: record.details as Record<string, unknown> }
            : {}),
        };
        break;
      }
      case "step.fail": {
        const step = stepOf(String(record.step));
        step.status = "failed";
        step.error = record.error as SerializedError;
        break;
      }
      case "item.start":
        itemOf(record).status = "running";
        break;
      case "item.end": {
        const item = itemOf(record);
        item.status = "succeeded";
        item.outputs = record.outputs as Record<string, unknown>;
        item.totals = record.totals as Partial<RunTotals>;
        item.artifacts = record.artifacts as Record<string, Artifact> | undefined;
        break;
      }
      case "item.fail": {
        const item = itemOf(record);
        item.status = "failed";
        item.error = record.error as SerializedError;
        break;
      }
      case "ledger": {
        if (record.via !== undefined) break;
        const item = itemOf(record);
        item.ledger ??= new Set();
        const take = typeof record.take === "number" ? record.take : 1;
        // An entry of an older journal, without a key, still says the kind kept its own.
        item.ledger.add(knownEntryKey(take, typeof record.key === "string" ? record.key : "*"));
        break;
      }
      case "fact": {
        const item = itemOf(record);
        item.facts[String(record.name)] = (record.data ?? {}) as Record<string, unknown>;
        break;
      }
      default:
        folderOf.get(record.type)?.fold(stepOf(String(record.step)), itemOf(record), record);
    }
  }
  return state;
}
