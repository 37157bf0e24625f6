import type {
  RunEstimate,
  RunEvent,
  RunEventOf,
  RunStatus,
  RunTotals,
  SerializedError,
} from "../contracts/run-event.js";

/** What the renderers know about one job a unit holds at the service, whatever its kind. */
export interface JobView {
  jobId: string;
  index?: number;
  status: string;
  polls: number;
  /** Bytes downloaded so far, once the download started. */
  downloadedBytes?: number;
  downloadTotal?: number;
}

/** What the renderers know about one step, folded from events. */
export interface StepView {
  id: string;
  kind: string;
  fanOut: boolean;
  state:
    | "pending"
    | "running"
    | "succeeded"
    | "cached"
    | "reused"
    | "failed"
    | "skipped"
    | "waiting";
  startedAt?: number;
  durationMs?: number;
  items: { total: number; done: number; failed: number; running: number };
  /** The jobs its units hold at the service, by id (from their progress). */
  jobs: Map<string, JobView>;
  /** The end of the text its units stream (a chat's answer as it comes). */
  text: string;
  /** How far its local work is (an encode), in percent. */
  percent?: number;
  /** Bytes of its latest transfer so far. */
  transferBytes?: number;
  /** Tokens the step's units used so far (live, from their usage progress). */
  tokens: number;
  /** The step's figures as its ledger says (from its end or failure event). */
  totals?: RunTotals;
  /** What the step is expected to cost, from the run's estimate. */
  estimate?: RunEstimate["steps"][string];
  files: string[];
  error?: SerializedError;
  skipReason?: string;
  /** What a `waiting` step waits for (a gate's question, or the gate it is behind). */
  waitReason?: string;
}

/** Everything the renderers know about a run. */
export interface RunView {
  name: string;
  runDir: string;
  startedAt?: number;
  steps: Map<string, StepView>;
  status?: RunStatus;
  totals?: RunTotals;
  /** What the run was expected to cost, from its `run.estimate` event. */
  estimate?: RunEstimate;
  outputs?: Record<string, unknown>;
  error?: SerializedError;
  durationMs?: number;
  /** The gates a run stopped at, and what approving them starts (its `run.waiting` event). */
  waiting?: RunEventOf<"run.waiting">;
}

/**
 * An empty view, before `run.start`.
 *
 * @example
 * const view = createRunView();
 * for (const event of events) applyEvent(view, event);
 */
export function createRunView(): RunView {
  return { name: "", runDir: "", steps: new Map() };
}

function ensureStep(view: RunView, id: string): StepView {
  let step = view.steps.get(id);
  if (!step) {
    step = {
      id,
      kind: "",
      fanOut: false,
      state: "pending",
      items: { total: 0, done: 0, failed: 0, running: 0 },
      jobs: new Map(),
      text: "",
      tokens: 0,
      files: [],
    };
    view.steps.set(id, step);
  }
  return step;
}

function collectFiles(outputs: unknown): string[] {
  if (Array.isArray(outputs)) return outputs.flatMap(collectFiles);
  if (outputs && typeof outputs === "object") {
    const file = (outputs as { file?: unknown }).file;
    if (typeof file === "string") return [file];
  }
  return [];
}

/**
 * Fold one event into the view. Pure apart from mutating `view`; unknown events are ignored
 * so that a newer runner does not break an older CLI.
 *
 * @example
 * applyEvent(view, { type: "step.start", seq: 2, time: "2026-01-01T00:00:00Z", step: "clips" });
 */
export function applyEvent(view: RunView, event: RunEvent): void {
  const at = Date.parse(event.time);
  switch (event.type) {
    case "run.start":
      view.name = event.name;
      view.runDir = event.runDir;
      view.startedAt = at;
      for (const step of event.steps) {
        const state = ensureStep(view, step.id);
        state.kind = step.kind;
        state.fanOut = step.fanOut;
      }
      return;
    case "run.end":
      view.status = event.status;
      view.totals = event.totals;
      view.outputs = event.outputs;
      view.error = event.error;
      view.durationMs = event.durationMs;
      return;
    case "step.start": {
      const step = ensureStep(view, event.step);
      step.state = "running";
      step.startedAt = at;
      return;
    }
    case "step.end": {
      const step = ensureStep(view, event.step);
      step.state = event.reused ? "reused" : event.cached ? "cached" : "succeeded";
      step.durationMs = event.durationMs;
      if (event.totals) step.totals = event.totals;
      step.files = collectFiles(event.outputs);
      return;
    }
    case "step.skip": {
      const step = ensureStep(view, event.step);
      step.state = "skipped";
      step.skipReason = event.reason;
      return;
    }
    case "step.wait": {
      const step = ensureStep(view, event.step);
      step.state = "waiting";
      step.waitReason = event.reason;
      return;
    }
    case "run.waiting":
      view.waiting = event;
      return;
    case "step.fail": {
      const step = ensureStep(view, event.step);
      step.state = "failed";
      step.error = event.error;
      if (event.totals) step.totals = event.totals;
      if (step.startedAt !== undefined) step.durationMs = at - step.startedAt;
      return;
    }
    case "item.start": {
      const step = ensureStep(view, event.step);
      step.fanOut = true;
      step.items.total = event.total;
      step.items.running += 1;
      return;
    }
    case "item.end": {
      const step = ensureStep(view, event.step);
      step.items.total = event.total;
      step.items.running = Math.max(0, step.items.running - 1);
      if (event.status === "failed") step.items.failed += 1;
      else step.items.done += 1;
      return;
    }
    case "unit.progress":
      foldProgress(ensureStep(view, event.step), event);
      return;
    case "run.estimate": {
      view.estimate = event.estimate;
      for (const [id, estimate] of Object.entries(event.estimate.steps))
        ensureStep(view, id).estimate = estimate;
      return;
    }
    default:
      return;
  }
}

/** Folds one unit's progress into its step's view: jobs, streamed text, tokens, bytes, percent. */
function foldProgress(step: StepView, event: RunEventOf<"unit.progress">): void {
  switch (event.stage) {
    case "text":
      step.text = (step.text + event.text).slice(-2000);
      return;
    case "usage":
      step.tokens += event.usage.total_tokens ?? 0;
      return;
    case "submitted":
    case "status": {
      const previous = step.jobs.get(event.job);
      step.jobs.set(event.job, {
        jobId: event.job,
        index: event.index,
        status: event.stage === "status" ? event.status : (previous?.status ?? "submitted"),
        polls: event.stage === "status" ? event.polls : (previous?.polls ?? 0),
      });
      return;
    }
    case "saved":
      for (const job of step.jobs.values()) if (job.index === event.index) job.status = "saved";
      return;
    case "transfer":
      step.transferBytes = event.bytes;
      for (const job of step.jobs.values()) {
        if (job.index !== event.index || job.status === "saved") continue;
        job.downloadedBytes = event.bytes;
        job.downloadTotal = event.total;
      }
      return;
    case "work":
      step.percent = event.percent;
      return;
    default:
      return;
  }
}

/**
 * The outputs of a run that name files, as `[name, path]` pairs (for the closing lines); a
 * list of files gives a pair per entry (`clips[0]`, `clips[1]`, …).
 *
 * @example
 * outputFiles({ video: "/runs/x/final.mp4", count: 3 }); // [["video", "/runs/x/final.mp4"]]
 */
export function outputFiles(outputs: Record<string, unknown> | undefined): [string, string][] {
  const files: [string, string][] = [];
  for (const [name, value] of Object.entries(outputs ?? {})) {
    const file = fileOf(value);
    if (file !== undefined) files.push([name, file]);
    else if (Array.isArray(value) && isFileOutput(value)) {
      // A list of files (each scene's clip): a line each, `clips[0]`, `clips[1]`, …
      value.forEach((entry, index) => {
        files.push([`${name}[${index}]`, fileOf(entry) as string]);
      });
    }
  }
  return files;
}

/**
 * True for an output that names a file, or a list of files (each scene's clip): one
 * {@link outputFiles} lists, not a text.
 * @example isFileOutput(["clips/0.mp4", "clips/1.mp4"]) // true
 */
export function isFileOutput(value: unknown): boolean {
  if (fileOf(value) !== undefined) return true;
  return (
    Array.isArray(value) && value.length > 0 && value.every((entry) => fileOf(entry) !== undefined)
  );
}

/** The file an output names: a path with an extension, or an object's `file`. */
function fileOf(value: unknown): string | undefined {
  if (typeof value === "string" && /^\S+\.[a-z0-9]{2,5}$/i.test(value)) return value;
  if (value && typeof value === "object" && typeof (value as { file?: unknown }).file === "string")
    return (value as { file: string }).file;
  return undefined;
}
