import type { RunEvent, UnitProgress } from "./run-event.js";

/**
 * An event as an older reelsmith wrote it, in today's shape: a kind's progress was once its
 * own event type, `<kind>.<moment>` (`{ type: "x.submitted", jobId }`, `{ type: "x.status",
 * jobId, status, polls }`, `{ type: "x.delta", text }`, `{ type: "x.progress", percent }`);
 * its fields say which stage it was, so the run directories they wrote still read (reports,
 * the studio, `reelsmith report`). Any other event is returned as it is.
 * @example upgradeEvent({ seq: 3, time, type: "x.delta", step: "story", text: "Once" }) // { type: "unit.progress", kind: "x", phase: "delta", stage: "text", text: "Once", … }
 */
export function upgradeEvent(event: RunEvent): RunEvent {
  const type = event.type as string;
  const dot = type.indexOf(".");
  if (dot < 0 || knownPrefixes.has(type.slice(0, dot))) return event;
  const old = event as unknown as Record<string, unknown>;
  const progress = stageOf(old);
  if (!progress || typeof old.step !== "string") return event;
  return {
    seq: event.seq,
    time: event.time,
    type: "unit.progress",
    step: old.step,
    ...(typeof old.index === "number" ? { index: old.index } : {}),
    kind: type.slice(0, dot),
    phase: type.slice(dot + 1),
    ...progress,
  } as RunEvent;
}

const knownPrefixes = new Set(["run", "step", "item", "unit", "budget"]);

function stageOf(old: Record<string, unknown>): UnitProgress | undefined {
  const type = String(old.type);
  const moment = type.slice(type.indexOf(".") + 1);
  if (typeof old.text === "string") return { stage: "text", text: old.text };
  if (old.usage && typeof old.usage === "object") return { stage: "usage", usage: old.usage };
  if (typeof old.percent === "number") return { stage: "work", percent: old.percent };
  if (typeof old.jobId === "string" && typeof old.status === "string")
    return {
      stage: "status",
      job: old.jobId,
      status: old.status,
      polls: Number(old.polls ?? 0),
      ...(typeof old.progress === "number" ? { progress: old.progress } : {}),
    };
  if (typeof old.file === "string" && typeof old.bytes === "number")
    return { stage: "saved", file: old.file, bytes: old.bytes };
  if (typeof old.bytes === "number")
    return {
      stage: "transfer",
      bytes: old.bytes,
      ...(typeof old.total === "number" ? { total: old.total } : {}),
    };
  if (typeof old.jobId === "string")
    return { stage: "submitted", job: old.jobId, ...(old.resumed ? { resumed: true } : {}) };
  if (moment === "slot") return { stage: "slot" };
  return undefined;
}
