import { dirname, isAbsolute, relative, sep } from "node:path";
import { stepPositions } from "@reelsmith/runner/internal";
import { kindsByName } from "@reelsmith/runner/kinds";
import { ledgerOf } from "@reelsmith/runner/runs";
import { activeTime } from "./active-time.js";
import { approvalGates, nextEstimate } from "./approval-gates.js";
import { buildTimeline } from "./build-timeline.js";
import { exitReason } from "./exit-reason.js";
import { finalMedia, madeMedia } from "./final-media.js";
import { eventFacts, unitKeyOf } from "./model-events.js";
import type { RunRecord } from "./read-run.js";
import type { ReportModel } from "./report-model.js";
import { runFile } from "./run-file.js";
import { stepRows } from "./step-rows.js";
import type { StepInfo } from "./timeline-marks.js";
import { unitAttempts } from "./unit-attempts.js";
import { unitViews } from "./unit-views.js";

/** The step kinds: each says how the report shows its units. */
const registry = kindsByName();

/**
 * Builds what the report shows from a run directory's records.
 * @example const model = buildModel(readRun("runs/x"));
 */
export function buildModel(record: RunRecord, now = new Date()): ReportModel {
  const { runDir, runJson, state, events } = record;
  const stepInfos = stepInfosOf(record);
  // How each step is shown: as run.start says its kind answered (else, for runs that did not
  // say, as the built-in kind of that name would).
  const roles = new Map(
    stepInfos.map((info) => [info.id, (info.report ?? registry.get(info.kind)?.report)?.role]),
  );
  const facts = eventFacts(events);
  const { estimate } = facts;
  // Every figure comes from the run's ledger in its journal (every session of a resumed run),
  // as the CLI's table, its events and `status` do.
  const ledger = ledgerOf(record.journal);
  const pipelinePath = shownPipelinePath(runDir, runJson.pipeline?.path);
  const steps = stepRows(record, stepInfos, { facts, ledger });
  const totals = ledger.total;
  if (estimate) totals.estimatedCredits = estimate.credits;
  const { cards, chats, errors } = unitViews(record, stepInfos, {
    facts,
    ledger,
    attempts: unitAttempts(events, record.journal),
    roles,
    locationOf: locator(record.pipelineSource, pipelinePath),
  });
  const { videos, images } = finalMedia(record, steps, roles);
  const ended = state.ended !== undefined && runJson.status !== "running";
  const status = ended ? (runJson.status ?? String(state.ended?.status ?? "unknown")) : "running";
  const gateSteps = stepInfos
    .filter((info) => roles.get(info.id) === "approval")
    .map((info) => info.id);
  const approvals = approvalGates(
    gateSteps,
    state,
    (step) => facts.requests.get(unitKeyOf(step, undefined)),
    { runDir, toRunFile: runFile },
  );
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
    ...madeMedia(record, stepInfos, roles),
    timeline: buildTimeline(events, stepInfos),
    chats,
    errors,
    approvals,
    ...(next ? { next } : {}),
    generatedAt: now.toISOString(),
  };
}

/** The steps as the latest session's run.start told them (else the journal's, as plain steps). */
function stepInfosOf({ events, state }: RunRecord): StepInfo[] {
  const lastStart = events.filter((e) => e.type === "run.start").at(-1);
  return lastStart?.type === "run.start"
    ? lastStart.steps
    : [...state.steps.keys()].map((id) => ({ id, kind: "step", fanOut: false }));
}

/** Where a step is written: `file:line:column` in the pipeline as the page names it. */
function locator(
  source: RunRecord["pipelineSource"],
  pipelinePath: string | undefined,
): (step: string) => string | undefined {
  const locations = stepPositions(source);
  return (step) => {
    const at = locations.get(step);
    if (!at) return undefined;
    const file = pipelinePath && pipelinePath !== "<inline>" ? pipelinePath : "pipeline.yaml";
    return `${file}:${at.line}:${at.column}`;
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
