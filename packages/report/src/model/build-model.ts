import { dirname, extname, isAbsolute, relative, sep } from "node:path";
import type {
  RunEstimate,
  RunEvent,
  RunEventOf,
  RunTotals,
  SerializedError,
} from "@reelsmith/runner";
import { ledgerOf } from "@reelsmith/runner";
import { addTotals, emptyTotals, stepPositions, unitKey } from "@reelsmith/runner/internal";
import { kindsByName } from "@reelsmith/runner/kinds";
import { activeTime } from "./active-time.js";
import { approvalGates, nextEstimate } from "./approval-gates.js";
import { buildTimeline } from "./build-timeline.js";
import { chatUnitOf } from "./chat-units.js";
import { AUDIO_EXTENSIONS, IMAGE_EXTENSIONS, unitImages } from "./image-files.js";
import { naturalOrder, type RunRecord } from "./read-run.js";
import type {
  ApprovalGate,
  ErrorEntry,
  ReportModel,
  RunFile,
  StepRow,
  StoryboardCard,
  SubRunRow,
} from "./report-model.js";
import { runFile, thumbnailPath } from "./run-file.js";
import { takeViews } from "./take-views.js";
import { unitAttempts } from "./unit-attempts.js";

const SINGLE_ITEM = -1;
const VIDEO_EXTENSIONS = new Set([".mp4", ".webm", ".mov", ".m4v"]);

/** The step kinds: each says how the report shows its units. */
const registry = kindsByName();

const numberOr = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

function totalsFrom(value: unknown): RunTotals {
  const totals = emptyTotals();
  if (value && typeof value === "object") addTotals(totals, value as Partial<RunTotals>);
  return totals;
}

/**
 * Builds what the report shows from a run directory's records.
 * @example const model = buildModel(readRun("runs/x"));
 */
export function buildModel(record: RunRecord, now = new Date()): ReportModel {
  const { runDir, runJson, state, events } = record;
  const starts = events.filter((e) => e.type === "run.start");
  const lastStart = starts.at(-1);
  const stepInfos: RunEventOf<"run.start">["steps"] =
    lastStart?.type === "run.start"
      ? lastStart.steps
      : [...state.steps.keys()].map((id) => ({ id, kind: "step", fanOut: false }));
  // How each step is shown: as run.start says its kind answered (else, for runs that did not
  // say, as the built-in kind of that name would).
  const roles = new Map(
    stepInfos.map((info) => [info.id, (info.report ?? registry.get(info.kind)?.report)?.role]),
  );
  const requests = new Map<string, Record<string, unknown>>();
  const durations = new Map<string, number>();
  /** Units whose last result came from the cache (they spent nothing; they saved). */
  const cachedUnits = new Map<string, boolean>();
  let estimate: RunEstimate | undefined;
  const key = (step: string, index: number | undefined) => `${step}#${index ?? SINGLE_ITEM}`;
  for (const event of events) {
    if (event.type === "step.request") {
      requests.set(key(event.step, event.index), event.spec);
    } else if (event.type === "step.end" && !event.reused) {
      durations.set(event.step, (durations.get(event.step) ?? 0) + event.durationMs);
      cachedUnits.set(key(event.step, undefined), event.cached);
    } else if (event.type === "item.end") {
      cachedUnits.set(key(event.step, event.index), event.status === "cached");
    } else if (event.type === "run.estimate" && estimate === undefined) {
      // The first session's estimate: what the run was expected to cost before it began.
      estimate = event.estimate;
    }
  }
  // Every figure comes from the run's ledger in its journal (every session of a resumed run),
  // as the CLI's table, its events and `status` do.
  const ledger = ledgerOf(record.journal);
  const attempts = unitAttempts(events, record.journal);

  const locations = stepPositions(record.pipelineSource);
  const pipelinePath = shownPipelinePath(runDir, runJson.pipeline?.path);
  const locationOf = (step: string) => {
    const at = locations.get(step);
    if (!at) return undefined;
    const file = pipelinePath && pipelinePath !== "<inline>" ? pipelinePath : "pipeline.yaml";
    return `${file}:${at.line}:${at.column}`;
  };

  const subRunsByStep = new Map<string, SubRunRow[]>();
  for (const sub of record.subRuns) {
    const owner = [...stepInfos]
      .map((s) => s.id)
      .filter((id) => sub.name.startsWith(`${id}-`))
      .sort((a, b) => b.length - a.length)[0];
    const row: SubRunRow = {
      name: `subruns/${sub.name}`,
      ...(sub.runJson.name ? { pipeline: sub.runJson.name } : {}),
      status: sub.runJson.status ?? "unknown",
      totals: totalsFrom(sub.runJson.totals),
    };
    const report = runFile(runDir, `${sub.dir}/report.html`);
    if (report?.exists) row.report = report;
    const list = subRunsByStep.get(owner ?? "") ?? setNew(subRunsByStep, owner ?? "", []);
    list.push(row);
  }

  const steps: StepRow[] = stepInfos.map((info) => {
    const journaled = state.steps.get(info.id);
    const totals = ledger.steps[info.id] ?? emptyTotals();
    const stepEstimate = estimate?.steps[info.id];
    const duration = durations.get(info.id);
    return {
      id: info.id,
      kind: info.kind,
      fanOut: info.fanOut,
      status: journaled?.status ?? "pending",
      items: info.fanOut ? countItems(info.id, journaled?.items.size ?? 0, events) : 1,
      ...(duration === undefined ? {} : { durationMs: duration }),
      totals,
      ...(stepEstimate ? { estimate: stepEstimate } : {}),
      subRuns: subRunsByStep.get(info.id) ?? [],
    };
  });
  const totals = ledger.total;
  if (estimate) totals.estimatedCredits = estimate.credits;

  // Who ran each unit: a run on many machines stamps each unit's records with its worker.
  const workers = new Map<string, string>();
  for (const entry of record.journal) {
    if (typeof entry.worker === "string" && typeof entry.step === "string")
      workers.set(key(entry.step, entry.index), entry.worker);
  }
  const cards: StoryboardCard[] = [];
  const chats: ReportModel["chats"] = [];
  const errors: ErrorEntry[] = [];
  for (const info of stepInfos) {
    const journaled = state.steps.get(info.id);
    const count = info.fanOut ? countItems(info.id, journaled?.items.size ?? 0, events) : 1;
    for (let position = 0; position < count; position++) {
      const index = info.fanOut ? position : undefined;
      const item = journaled?.items.get(index ?? SINGLE_ITEM);
      const spec = requests.get(key(info.id, index)) ?? {};
      const outputs = (item?.outputs ??
        (info.fanOut ? undefined : (journaled?.outputs as Record<string, unknown>))) as
        | Record<string, unknown>
        | undefined;
      const error = item?.error ?? (info.fanOut ? undefined : journaled?.error);
      const status = unitStatus(item?.status ?? journaled?.status, item, outputs, error);
      const role = roles.get(info.id);
      if (role === "clip") {
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
        cards.push({
          ...cardOf(runDir, info, index, spec, outputs, item?.facts, status, tries, error),
          ...(figures ? { credits: figures.credits, savedCredits: figures.savedCredits } : {}),
          ...(workers.has(key(info.id, index)) ? { worker: workers.get(key(info.id, index)) } : {}),
          ...(figures?.jobsCached ? { status: "cached" as const } : {}),
          // A retaken clip: the picked take's prompt, and every take beside it.
          ...(picked?.prompt === undefined ? {} : { prompt: picked.prompt }),
          ...(takes.length > 1 ? { takes } : {}),
        });
      } else if (role === "conversation" && (outputs || error || item)) {
        chats.push(
          chatUnitOf(info.id, index, spec, outputs, status, {
            cached: cachedUnits.get(key(info.id, index)) === true,
            spentTokens: ledger.units[unitKey(info.id, index)]?.totalTokens,
          }),
        );
      }
      if (error && info.fanOut) errors.push(errorEntry(info.id, index, error, locationOf(info.id)));
    }
    if (journaled?.error && !info.fanOut) {
      errors.push(errorEntry(info.id, undefined, journaled.error, locationOf(info.id)));
    } else if (journaled?.error && info.fanOut && !errors.some((e) => e.step === info.id)) {
      errors.push(errorEntry(info.id, undefined, journaled.error, locationOf(info.id)));
    }
  }
  if (runJson.error && errors.length === 0) {
    errors.push({
      step: "run",
      name: String(runJson.error.name ?? "Error"),
      ...(runJson.error.code ? { code: String(runJson.error.code) } : {}),
      message: String(runJson.error.message ?? ""),
    });
  }

  const { videos, images } = finalMedia(runDir, runJson.outputs, steps, state, roles);
  videos.forEach((video, position) => {
    const poster = runFile(runDir, `report/thumbs/output-${position}.jpg`);
    if (poster) Object.assign(video, { poster });
  });
  const ended = state.ended !== undefined && runJson.status !== "running";
  const status = ended ? (runJson.status ?? String(state.ended?.status ?? "unknown")) : "running";
  const gateSteps = stepInfos
    .filter((info) => roles.get(info.id) === "approval")
    .map((info) => info.id);
  const approvals = approvalGates(gateSteps, state, (step) => requests.get(key(step, undefined)), {
    runDir,
    toRunFile: runFile,
  });
  // What the media units made that the page shows: pictures (character sheets, keyframes)
  // and sounds (a narration per scene), step by step.
  const madeFiles = (extensions: ReadonlySet<string>) =>
    stepInfos
      .filter((info) => roles.get(info.id) === "media")
      .map((info) => {
        const journaled = state.steps.get(info.id);
        const units = info.fanOut
          ? [...(journaled?.items.entries() ?? [])]
              .sort(([a], [b]) => a - b)
              .map(([, item]) => item.outputs)
          : [journaled?.outputs];
        const files = units.flatMap((outputs) =>
          unitImages(outputs as Record<string, unknown> | undefined, runDir, runFile, extensions),
        );
        return { step: info.id, files };
      })
      .filter((entry) => entry.files.length > 0);
  const madeImages = madeFiles(IMAGE_EXTENSIONS);
  const madeSounds = madeFiles(AUDIO_EXTENSIONS);
  const next = status === "waiting" ? nextEstimate(events) : undefined;
  const active = activeTime(record.journal);
  return {
    name: runJson.name ?? String(state.start?.name ?? "run"),
    ...(runJson.runId ? { runId: runJson.runId } : {}),
    ...(pipelinePath ? { pipelinePath } : {}),
    inputs: runJson.inputs ?? (state.start?.inputs as Record<string, unknown>) ?? {},
    service:
      runJson.builtInService || !runJson.baseURL
        ? "the built-in simulator (offline, synthetic clips)"
        : runJson.baseURL,
    ...(runJson.startedAt ? { startedAt: runJson.startedAt } : {}),
    ...(runJson.resumedAt ? { resumedAt: runJson.resumedAt } : {}),
    ...(runJson.endedAt && ended ? { endedAt: runJson.endedAt } : {}),
    ...(active ? { active } : {}),
    status,
    ...exitReason(status, runJson.error, record.locked, approvals),
    inProgress: !ended,
    steps,
    totals,
    ...(estimate ? { estimate } : {}),
    cards,
    finalVideos: videos,
    finalImages: images,
    madeImages,
    madeSounds,
    timeline: buildTimeline(events, stepInfos),
    chats,
    errors,
    approvals,
    ...(next ? { next } : {}),
    generatedAt: now.toISOString(),
  };
}

/**
 * The pipeline's path as the page shows it: relative to the directory that holds `runs/`
 * (where `reelsmith run` was started) when the file is inside it, so a published report does
 * not show the machine's layout; else as recorded.
 */
function shownPipelinePath(runDir: string, path: string | undefined): string | undefined {
  if (!path || path === "<inline>" || !isAbsolute(path)) return path;
  const project = dirname(dirname(runDir));
  const shown = relative(project, path);
  return shown.startsWith("..") || isAbsolute(shown) ? path : shown.split(sep).join("/");
}

function setNew<V = RunTotals>(map: Map<string, V>, id: string, value?: V): V {
  const created = value ?? (emptyTotals() as V);
  map.set(id, created);
  return created;
}

/** Items of a fan-out: the largest `total` seen in events, else what the journal holds. */
function countItems(step: string, journaled: number, events: readonly RunEvent[]): number {
  let total = journaled;
  for (const event of events) {
    if ((event.type === "item.start" || event.type === "item.end") && event.step === step) {
      total = Math.max(total, event.total);
    }
  }
  return total;
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

function cardOf(
  runDir: string,
  { id: step, kind }: { id: string; kind: string },
  index: number | undefined,
  spec: Record<string, unknown>,
  outputs: Record<string, unknown> | undefined,
  facts: Record<string, Record<string, unknown>> | undefined,
  status: StoryboardCard["status"],
  attempts: number,
  error: SerializedError | undefined,
): StoryboardCard {
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
    ...(spec.seconds === undefined ? {} : { seconds: String(spec.seconds) }),
    ...(typeof jobId === "string" ? { jobId } : {}),
    attempts: attempts || (outputs ? 1 : 0),
    ...(duration === undefined ? {} : { duration }),
    ...(clip ? { clip } : {}),
    ...(thumbnail ? { thumbnail } : {}),
    ...(error ? { error: error.message } : {}),
  };
}

function errorEntry(
  step: string,
  index: number | undefined,
  error: SerializedError,
  location: string | undefined,
): ErrorEntry {
  const own =
    typeof error.file === "string" && typeof error.line === "number"
      ? `${error.file}:${error.line}:${typeof error.column === "number" ? error.column : 1}`
      : undefined;
  return {
    step,
    ...(index === undefined ? {} : { index }),
    name: error.name,
    ...(error.code ? { code: error.code } : {}),
    message: error.message,
    ...((own ?? location) ? { location: own ?? location } : {}),
  };
}

function finalMedia(
  runDir: string,
  outputs: Record<string, unknown> | undefined,
  steps: readonly StepRow[],
  state: RunRecord["state"],
  roles: ReadonlyMap<string, string | undefined>,
): { videos: RunFile[]; images: RunFile[] } {
  const candidates: unknown[] = Object.values(outputs ?? {});
  // A run that did not finish has no outputs yet: its ffmpeg steps' files are what it made.
  if (candidates.length === 0) {
    for (const step of steps) {
      if (roles.get(step.id) !== "media" || step.fanOut) continue;
      const file = (state.steps.get(step.id)?.outputs as { file?: unknown } | undefined)?.file;
      candidates.push(file);
    }
  }
  const seen = new Set<string>();
  const videos: RunFile[] = [];
  const images: RunFile[] = [];
  for (const candidate of candidates) {
    const file = runFile(runDir, candidate);
    if (!file?.exists || seen.has(file.relative)) continue;
    seen.add(file.relative);
    const extension = extname(file.relative).toLowerCase();
    if (VIDEO_EXTENSIONS.has(extension)) videos.push(file);
    else if (IMAGE_EXTENSIONS.has(extension)) images.push(file);
  }
  images.sort((a, b) => naturalOrder(a.relative, b.relative));
  return { videos, images };
}

function exitReason(
  status: string,
  error: { message?: string } | undefined,
  locked: boolean,
  approvals: readonly ApprovalGate[],
): { exitReason?: string } {
  if (status === "succeeded") return { exitReason: "finished: every step succeeded" };
  if (status === "waiting") {
    const at = approvals.filter((gate) => gate.state === "waiting").map((gate) => gate.step);
    return {
      exitReason: `waiting for approval at ${at.join(", ") || "a gate"}: approve it (reelsmith approve), then resume`,
    };
  }
  if (status === "rejected") return { exitReason: error?.message ?? "a gate was rejected" };
  if (status === "cancelled") return { exitReason: "interrupted (resume with reelsmith resume)" };
  if (status === "failed") return { exitReason: error?.message ?? "a step failed" };
  if (status === "running")
    return {
      exitReason: locked
        ? "still running: this page shows what is known so far"
        : "stopped before its end (killed?): resume with reelsmith resume",
    };
  return {};
}
