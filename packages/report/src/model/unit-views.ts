import type { SerializedError } from "@reelsmith/runner";
import { type ItemState, type StepState, unitKey } from "@reelsmith/runner/internal";
import { kindsByName } from "@reelsmith/runner/kinds";
import type { Ledger } from "@reelsmith/runner/runs";
import { chatUnitOf } from "./chat-units.js";
import { errorEntry, runErrorEntry } from "./error-entries.js";
import { countItems, type EventFacts, unitKeyOf } from "./model-events.js";
import type { RunRecord } from "./read-run.js";
import type { ErrorEntry, ReportModel, StoryboardCard } from "./report-model.js";
import { runFile, thumbnailPath } from "./run-file.js";
import { takeViews } from "./take-views.js";
import type { StepInfo } from "./timeline-marks.js";
import type { unitAttempts } from "./unit-attempts.js";

const SINGLE_ITEM = -1;

/** The step kinds: each says how the report shows its units. */
const registry = kindsByName();

const numberOr = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** What the units are shown from beside the journal: the event log's facts, the ledger … */
export interface UnitSources {
  facts: EventFacts;
  ledger: Ledger;
  attempts: ReturnType<typeof unitAttempts>;
  /** How each step is shown (its kind's report role). */
  roles: ReadonlyMap<string, string | undefined>;
  /** Where a step is written in the pipeline (`file:line:column`). */
  locationOf(step: string): string | undefined;
}

/** One unit of a step as the journal has it. */
interface Unit {
  info: StepInfo;
  index: number | undefined;
  journaled: StepState | undefined;
  item: ItemState | undefined;
  outputs: Record<string, unknown> | undefined;
  error: SerializedError | undefined;
  status: StoryboardCard["status"];
}

/**
 * Every unit of every step as the page shows it: a clip's storyboard card (with its takes),
 * a conversation's chat, and the errors of steps and items (the run's own when none says why).
 * @example const { cards, chats, errors } = unitViews(record, stepInfos, sources);
 */
export function unitViews(
  record: RunRecord,
  stepInfos: readonly StepInfo[],
  sources: UnitSources,
): { cards: StoryboardCard[]; chats: ReportModel["chats"]; errors: ErrorEntry[] } {
  const { state, runJson } = record;
  const workers = workersOf(record);
  const cards: StoryboardCard[] = [];
  const chats: ReportModel["chats"] = [];
  const errors: ErrorEntry[] = [];
  for (const info of stepInfos) {
    const journaled = state.steps.get(info.id);
    const count = info.fanOut ? countItems(info.id, journaled?.items.size ?? 0, record.events) : 1;
    const location = sources.locationOf(info.id);
    for (let position = 0; position < count; position++) {
      const unit = unitOf(info, info.fanOut ? position : undefined, journaled);
      const role = sources.roles.get(info.id);
      if (role === "clip") cards.push(clipCard(record.runDir, unit, sources, workers));
      else if (role === "conversation" && (unit.outputs || unit.error || unit.item)) {
        chats.push(chatOf(unit, sources));
      }
      if (unit.error && info.fanOut)
        errors.push(errorEntry(info.id, unit.index, unit.error, location));
    }
    if (journaled?.error && !info.fanOut) {
      errors.push(errorEntry(info.id, undefined, journaled.error, location));
    } else if (journaled?.error && info.fanOut && !errors.some((e) => e.step === info.id)) {
      errors.push(errorEntry(info.id, undefined, journaled.error, location));
    }
  }
  if (runJson.error && errors.length === 0) errors.push(runErrorEntry(runJson.error));
  return { cards, chats, errors };
}

/** Who ran each unit: a run on many machines stamps each unit's records with its worker. */
function workersOf(record: RunRecord): Map<string, string> {
  const workers = new Map<string, string>();
  for (const entry of record.journal) {
    if (typeof entry.worker === "string" && typeof entry.step === "string")
      workers.set(unitKeyOf(entry.step, entry.index as number | undefined), entry.worker);
  }
  return workers;
}

function unitOf(info: StepInfo, index: number | undefined, journaled: StepState | undefined): Unit {
  const item = journaled?.items.get(index ?? SINGLE_ITEM);
  const outputs = (item?.outputs ??
    (info.fanOut ? undefined : (journaled?.outputs as Record<string, unknown>))) as
    | Record<string, unknown>
    | undefined;
  const error = item?.error ?? (info.fanOut ? undefined : journaled?.error);
  const status = unitStatus(item?.status ?? journaled?.status, item, outputs, error);
  return { info, index, journaled, item, outputs, error, status };
}

/** A clip's card: the picked take's request, job, clip and figures, and every take beside it. */
function clipCard(
  runDir: string,
  unit: Unit,
  { facts, ledger, attempts }: UnitSources,
  workers: ReadonlyMap<string, string>,
): StoryboardCard {
  const { info, index, journaled, item } = unit;
  const key = unitKeyOf(info.id, index);
  const figures = ledger.units[unitKey(info.id, index)];
  const takes =
    journaled && item?.takes
      ? takeViews(runDir, info.id, index, journaled, item, ledger, (take) =>
          attempts.of(info.id, index, take),
        )
      : [];
  const picked = takes.find((take) => take.picked);
  // The card's attempts are those of the take it shows (the picked one).
  const tries = attempts.of(info.id, index, item?.takes?.picked ?? 1);
  return {
    ...cardOf(runDir, unit, facts.requests.get(key) ?? {}, tries),
    ...(figures ? { credits: figures.credits, savedCredits: figures.savedCredits } : {}),
    ...(workers.has(key) ? { worker: workers.get(key) } : {}),
    ...(figures?.jobsCached ? { status: "cached" as const } : {}),
    // A retaken clip: the picked take's prompt, and every take beside it.
    ...(picked?.prompt === undefined ? {} : { prompt: picked.prompt }),
    ...(takes.length > 1 ? { takes } : {}),
  };
}

function chatOf(unit: Unit, { facts, ledger }: UnitSources): ReportModel["chats"][number] {
  const { info, index } = unit;
  const key = unitKeyOf(info.id, index);
  return chatUnitOf(info.id, index, facts.requests.get(key) ?? {}, unit.outputs, unit.status, {
    cached: facts.cachedUnits.get(key) === true,
    spentTokens: ledger.units[unitKey(info.id, index)]?.totalTokens,
  });
}

function unitStatus(
  status: string | undefined,
  item: { status: string } | undefined,
  outputs: Record<string, unknown> | undefined,
  error: SerializedError | undefined,
): StoryboardCard["status"] {
  if (error || status === "failed") return "failed";
  if (outputs) return "succeeded";
  if (item || status === "running") return "running";
  return "pending";
}

/**
 * The length a clip's request asks for, in words: `6 s`, or `at least 5.66 s` for a length
 * set by another step's (a narration's); undefined when none is asked.
 * @example secondsAsked({ at_least: 5.656 }) // "at least 5.66 s"
 */
export function secondsAsked(value: unknown): string | undefined {
  const seconds = (number: number) => `${Math.round(number * 100) / 100} s`;
  if (typeof value === "number" && Number.isFinite(value)) return seconds(value);
  if (typeof value === "string" && value.trim() !== "") return `${value.trim()} s`;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const atLeast = Number((value as { at_least?: unknown }).at_least);
    if (Number.isFinite(atLeast)) return `at least ${seconds(atLeast)}`;
  }
  return undefined;
}

function cardOf(
  runDir: string,
  { info, index, outputs, item, status, error }: Unit,
  spec: Record<string, unknown>,
  attempts: number,
): StoryboardCard {
  const { id: step, kind } = info;
  const facts = item?.facts;
  // The job its kind says the unit holds, from the facts it journaled.
  const jobId = outputs?.id ?? (facts ? registry.get(kind)?.heldJob?.(facts)?.id : undefined);
  const clip = runFile(runDir, outputs?.file);
  const thumbnail = clip ? runFile(runDir, thumbnailPath(step, index)) : undefined;
  const duration = numberOr(outputs?.duration);
  return {
    step,
    ...(index === undefined ? {} : { index }),
    status,
    ...(spec.prompt === undefined ? {} : { prompt: String(spec.prompt) }),
    ...(spec.model === undefined ? {} : { model: String(spec.model) }),
    ...(spec.size === undefined ? {} : { size: String(spec.size) }),
    ...(secondsAsked(spec.seconds) === undefined ? {} : { seconds: secondsAsked(spec.seconds) }),
    ...(typeof jobId === "string" ? { jobId } : {}),
    attempts: attempts || (outputs ? 1 : 0),
    ...(duration === undefined ? {} : { duration }),
    ...(clip ? { clip } : {}),
    ...(thumbnail ? { thumbnail } : {}),
    ...(error ? { error: error.message } : {}),
  };
}
