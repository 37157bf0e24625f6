/** An event as read from a file: only `type` is certain; fields are checked when used. */
export type LoggedEvent = { type: string; time?: string } & Record<string, unknown>;

/** One row of the step table. */
export interface StepRow {
  id: string;
  kind?: string;
  /** pending, running, succeeded, cached, reused, failed, skipped. */
  status: string;
  items?: { total: number; done: number; failed: number };
  durationMs?: number;
  tokens?: number;
  credits?: number;
  /** Only when the events carry it (`totals.savedCredits`). */
  saved?: number;
  /** The step's expected credits, from the run's `run.estimate`. */
  estimated?: number;
  /** Its expected credits per item, when their number was known only at run time. */
  estimatedPerItem?: number;
}

/** What the summary says about a run, from its events (and run.json when they are missing). */
export interface RunDigest {
  name?: string;
  runId?: string;
  runDir?: string;
  /** The run's status from its `run.end` (or run.json); undefined while it never ended. */
  status?: string;
  steps: StepRow[];
  durationMs?: number;
  credits?: number;
  saved?: number;
  estimated?: number;
  /** False when part of the cost was known only at run time (`estimated` is its certain part). */
  estimateComplete?: boolean;
  tokens?: number;
  /** What the run made with paid requests, by noun (`{ videos: 4 }`). */
  made?: Record<string, number>;
  outputs: Record<string, unknown>;
  error?: { message: string; code?: string; step?: string };
  budgetReached: boolean;
}

/**
 * The events of an NDJSON text (events.ndjson, or the CLI's `--json` output). Lines that
 * are not events (a torn last line) are skipped.
 *
 * @example
 * const events = parseEvents(readFileSync("runs/x/events.ndjson", "utf8"));
 */
export function parseEvents(text: string): LoggedEvent[] {
  const events: LoggedEvent[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (
        value &&
        typeof value === "object" &&
        typeof (value as { type?: unknown }).type === "string"
      )
        events.push(value as LoggedEvent);
    } catch {
      // a torn line
    }
  }
  return events;
}

const number = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function errorOf(value: unknown): RunDigest["error"] {
  const error = record(value);
  const message = text(error.message);
  if (!message) return undefined;
  return {
    message,
    ...(text(error.code) ? { code: text(error.code) } : {}),
    ...(text(error.step) ? { step: text(error.step) } : {}),
  };
}

function applyTotals(target: StepRow | RunDigest, totalsValue: unknown): void {
  const totals = record(totalsValue);
  const credits = number(totals.credits);
  if (credits !== undefined) target.credits = credits;
  const tokens = number(totals.totalTokens);
  if (tokens !== undefined) target.tokens = tokens;
  const saved = number(totals.savedCredits);
  if (saved !== undefined) target.saved = saved;
  const estimated = number(totals.estimatedCredits);
  if (estimated !== undefined) target.estimated = estimated;
}

/**
 * Fold a run's events into what the summary shows: a row per step (status, items,
 * duration, tokens, credits, and saved/estimated credits when the events carry them), the
 * totals, outputs and error of the last `run.end`. A resumed run's later session wins.
 * `runJson` fills what the events lack (a run whose log was lost).
 *
 * @example
 * const digest = digestRun(parseEvents(log), JSON.parse(runJsonText));
 */
export function digestRun(events: LoggedEvent[], runJson: Record<string, unknown> = {}): RunDigest {
  const digest: RunDigest = { steps: [], outputs: {}, budgetReached: false };
  const steps = new Map<string, StepRow>();
  const started = new Map<string, number>();
  const step = (id: string): StepRow => {
    let row = steps.get(id);
    if (!row) {
      row = { id, status: "pending" };
      steps.set(id, row);
    }
    return row;
  };
  for (const event of events) {
    const id = text(event.step);
    const at = event.time ? Date.parse(event.time) : Number.NaN;
    switch (event.type) {
      case "run.start": {
        digest.name = text(event.name);
        digest.runId = text(event.runId);
        digest.runDir = text(event.runDir);
        digest.status = undefined;
        for (const entry of Array.isArray(event.steps) ? event.steps : []) {
          const declared = record(entry);
          const declaredId = text(declared.id);
          if (declaredId) step(declaredId).kind = text(declared.kind);
        }
        break;
      }
      case "step.start":
        if (!id) break;
        step(id).status = "running";
        step(id).items = undefined;
        step(id).tokens = undefined;
        step(id).durationMs = undefined;
        if (!Number.isNaN(at)) started.set(id, at);
        break;
      case "step.end": {
        if (!id) break;
        const row = step(id);
        row.status = event.reused ? "reused" : event.cached ? "cached" : "succeeded";
        row.durationMs = number(event.durationMs);
        applyTotals(row, event.totals);
        break;
      }
      case "step.fail": {
        if (!id) break;
        const row = step(id);
        row.status = "failed";
        const start = started.get(id);
        if (start !== undefined && !Number.isNaN(at)) row.durationMs = at - start;
        break;
      }
      case "step.skip":
        if (id) step(id).status = "skipped";
        break;
      case "item.end": {
        if (!id) break;
        const row = step(id);
        const items = row.items ?? { total: 0, done: 0, failed: 0 };
        items.total = number(event.total) ?? items.total;
        if (event.status === "failed") items.failed += 1;
        else items.done += 1;
        row.items = items;
        break;
      }
      case "unit.progress": {
        // Tokens of a step that has not ended (or failed): its step.end totals replace them.
        if (!id || event.stage !== "usage") break;
        const row = step(id);
        if (row.status === "running")
          row.tokens = (row.tokens ?? 0) + (number(record(event.usage).total_tokens) ?? 0);
        break;
      }
      case "budget.reached":
        digest.budgetReached = true;
        break;
      case "run.estimate": {
        // Each step's expected credits (known ones), kept across the step's own totals.
        const estimate = record(event.estimate);
        for (const [stepId, value] of Object.entries(record(estimate.steps))) {
          const credits = number(record(value).credits);
          const perUnit = number(record(value).perUnit);
          if (credits !== undefined) step(stepId).estimated = credits;
          else if (perUnit !== undefined) step(stepId).estimatedPerItem = perUnit;
        }
        const total = number(estimate.credits);
        if (total !== undefined) digest.estimated = total;
        if (typeof estimate.complete === "boolean") digest.estimateComplete = estimate.complete;
        break;
      }
      case "run.end":
        digest.status = text(event.status);
        digest.durationMs = number(event.durationMs);
        applyTotals(digest, event.totals);
        digest.made = madeOf(event.totals);
        digest.outputs = record(event.outputs);
        digest.error = errorOf(event.error);
        break;
      default:
        break;
    }
  }
  digest.steps = [...steps.values()];
  digest.name ??= text(runJson.name);
  digest.runId ??= text(runJson.runId);
  if (digest.status === undefined && text(runJson.status) !== "running") {
    digest.status = text(runJson.status);
    applyTotals(digest, runJson.totals);
    if (Object.keys(digest.outputs).length === 0) digest.outputs = record(runJson.outputs);
    digest.error ??= errorOf(runJson.error);
  }
  return digest;
}

/** The counts of `totals.made`, by noun. */
function madeOf(totals: unknown): Record<string, number> | undefined {
  const made: Record<string, number> = {};
  for (const [noun, count] of Object.entries(record(record(totals).made)))
    if (typeof count === "number" && count > 0) made[noun] = count;
  return Object.keys(made).length > 0 ? made : undefined;
}
