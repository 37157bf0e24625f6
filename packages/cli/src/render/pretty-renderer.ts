import { createLogUpdate } from "log-update";
import { createColors } from "picocolors";
import type { ResumeReason, RunEvent, RunResultView } from "../contracts/run-event.js";
import { describeError } from "./describe-error.js";
import { budgetReachedLine, formatBytes, formatDuration, lastLine, progressBar } from "./format.js";
import { createEstimateLines } from "./format-estimate.js";
import { formatWaiting } from "./format-waiting.js";
import { keptBecause } from "./kept-because.js";
import type { TextSink } from "./redact.js";
import type { Renderer } from "./renderer.js";
import { applyEvent, createRunView, type RunView, type StepView } from "./run-state.js";
import { displayPath, formatSummary } from "./summary.js";

/** Where the pretty renderer draws: a live area redrawn in place, and permanent lines above it. */
export interface FrameWriter {
  /** Replace the live area with `frame`. */
  update(frame: string): void;
  /** Print `text` permanently above the live area. */
  persist(text: string): void;
  /** Remove the live area for good. */
  done(): void;
}

/** Options of {@link createPrettyRenderer}. */
export interface PrettyRendererOptions {
  out: TextSink;
  cwd: string;
  /** Where frames go; defaults to log-update on `out`. */
  frames?: FrameWriter;
  /** Clock for elapsed times (tests pass a fixed one). */
  now?: () => number;
  /** Redraw period for spinners and elapsed times; 0 disables the timer (tests). */
  tickMs?: number;
  color?: boolean;
  /** Live lines allowed per fan-out for video jobs. */
  maxJobLines?: number;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * A frame writer on top of log-update (cursor hidden while drawing).
 *
 * @example
 * const frames = createLogUpdateFrames(process.stdout);
 */
export function createLogUpdateFrames(out: TextSink): FrameWriter {
  const log = createLogUpdate(out as NodeJS.WriteStream);
  let last = "";
  return {
    update(frame) {
      last = frame;
      log(frame);
    },
    persist(text) {
      log.clear();
      out.write(text.endsWith("\n") ? text : `${text}\n`);
      if (last) log(last);
    },
    done() {
      log.clear();
      log.done();
    },
  };
}

/**
 * The live area: one line per running step with its state and elapsed time, a progress bar
 * over a fan-out's items, each unfinished video job with its status and poll count, the tail
 * of streamed chat tokens, and ffmpeg progress.
 *
 * @example
 * const frame = renderFrame(view, { now: Date.now(), tick: 0, color: false });
 */
export function renderFrame(
  view: RunView,
  options: { now: number; tick: number; color: boolean; maxJobLines?: number; width?: number },
): string {
  const c = createColors(options.color);
  const spinner = SPINNER[options.tick % SPINNER.length] ?? "-";
  const width = options.width ?? 100;
  const lines: string[] = [];
  for (const step of view.steps.values()) {
    if (step.state !== "running") continue;
    const elapsed =
      step.startedAt === undefined ? "" : formatDuration(options.now - step.startedAt);
    let detail = "";
    if (step.fanOut && step.items.total > 0) {
      const done = step.items.done + step.items.failed;
      detail = `${progressBar(done, step.items.total, 16)} ${step.id} ${done}/${step.items.total}`;
      if (step.items.failed > 0) detail += c.red(` (${step.items.failed} failed)`);
    } else if (step.percent !== undefined) {
      detail = `${progressBar(step.percent, 100, 16)} ${Math.round(step.percent)}%`;
    } else if (step.text) {
      detail = c.dim(`“${lastLine(step.text, Math.max(20, width - step.id.length - 30))}”`);
    }
    lines.push(
      `${c.cyan(spinner)} ${c.bold(step.id)} ${c.dim(step.kind)} ${c.dim(elapsed)} ${detail}`.trimEnd(),
    );
    lines.push(...jobLines(step, c, options.maxJobLines ?? 6));
  }
  return lines.join("\n");
}

function jobLines(step: StepView, c: ReturnType<typeof createColors>, max: number): string[] {
  const open = [...step.jobs.values()].filter(
    (job) => job.status !== "saved" && job.status !== "failed",
  );
  const lines = open.slice(0, max).map((job) => {
    const label = job.index === undefined ? "" : `#${job.index} `;
    const polls = `${job.polls} poll${job.polls === 1 ? "" : "s"}`;
    const download =
      job.downloadedBytes === undefined
        ? ""
        : ` · downloading ${formatBytes(job.downloadedBytes)}${job.downloadTotal ? ` of ${formatBytes(job.downloadTotal)}` : ""}`;
    return `    ${c.dim(label)}${job.jobId} ${job.status} ${c.dim(`· ${polls}${download}`)}`;
  });
  if (open.length > max) lines.push(c.dim(`    … ${open.length - max} more`));
  return lines;
}

function stepDoneLine(
  step: StepView,
  c: ReturnType<typeof createColors>,
  resumedAfter: ResumeReason | undefined,
): string {
  const duration = step.durationMs === undefined ? "" : c.dim(formatDuration(step.durationMs));
  const items =
    step.fanOut && step.items.total > 0 ? ` ${step.items.done}/${step.items.total}` : "";
  switch (step.state) {
    case "succeeded":
      return `${c.green("✔")} ${step.id}${items} ${duration}`.trimEnd();
    case "cached":
      return `${c.green("✔")} ${step.id}${items} ${c.dim("(cache)")} ${duration}`.trimEnd();
    case "reused":
      return `${c.green("✔")} ${step.id}${items} ${c.dim(`(${keptBecause(resumedAfter)})`)}`;
    case "skipped":
      return `${c.yellow("○")} ${step.id} ${c.dim(`skipped: ${step.skipReason ?? ""}`)}`.trimEnd();
    case "waiting":
      return `${c.cyan("⏸")} ${step.id} ${step.waitReason ?? "waits"}`;
    default:
      return `${c.red("✖")} ${step.id}${items} ${duration} ${c.red(describeError(step.error))}`.trimEnd();
  }
}

/**
 * The renderer for a person at a terminal: finished steps print once, running steps redraw in
 * place (log-update), and the run closes with the summary table and the output paths.
 *
 * @example
 * const renderer = createPrettyRenderer({ out: process.stdout, cwd: process.cwd() });
 */
export function createPrettyRenderer(options: PrettyRendererOptions): Renderer {
  const view = createRunView();
  const color = options.color ?? true;
  const c = createColors(color);
  const frames = options.frames ?? createLogUpdateFrames(options.out);
  const now = options.now ?? Date.now;
  let tick = 0;
  // Why this session goes on (a resumed run): said for each step it keeps.
  let resumedAfter: ResumeReason | undefined;
  const estimateLines = createEstimateLines();
  const draw = () =>
    frames.update(
      renderFrame(view, {
        now: now(),
        tick,
        color,
        maxJobLines: options.maxJobLines,
        width: options.out.columns,
      }),
    );
  const tickMs = options.tickMs ?? 100;
  const timer =
    tickMs > 0
      ? setInterval(() => {
          tick += 1;
          draw();
        }, tickMs)
      : undefined;
  timer?.unref?.();
  return {
    event(event: RunEvent) {
      applyEvent(view, event);
      if (event.type === "run.start") {
        resumedAfter = event.resumedAfter;
        const verb = event.resumed ? "resuming " : "";
        frames.persist(
          `${verb}${c.bold(event.name)} ${c.dim(`→ ${displayPath(event.runDir, options.cwd)}`)}`,
        );
      } else if (
        event.type === "step.end" ||
        event.type === "step.fail" ||
        event.type === "step.skip" ||
        event.type === "step.wait"
      ) {
        const step = view.steps.get(event.step);
        if (step) frames.persist(stepDoneLine(step, c, resumedAfter));
      } else if (event.type === "step.retry") {
        const where = event.item === undefined ? event.step : `${event.step}#${event.item}`;
        frames.persist(
          c.yellow(`↻ ${where} attempt ${event.attempt}: ${describeError(event.error)}`),
        );
      } else if (event.type === "run.estimate") {
        for (const line of estimateLines(event.estimate, event.maxCredits)) {
          frames.persist(c.dim(line));
        }
      } else if (event.type === "run.waiting") {
        for (const line of formatWaiting(event)) frames.persist(c.cyan(line));
      } else if (event.type === "budget.reached") {
        frames.persist(c.yellow(budgetReachedLine(event.credits, event.maxCredits)));
      } else if (event.type === "log" && event.level !== "debug") {
        frames.persist(`${event.level === "warn" ? c.yellow("!") : c.dim("·")} ${event.message}`);
      }
      draw();
    },
    note(message) {
      frames.persist(message);
    },
    end(result: RunResultView) {
      if (timer) clearInterval(timer);
      frames.update("");
      frames.done();
      const summary = formatSummary(view, result, {
        cwd: options.cwd,
        ...(options.out.columns ? { width: options.out.columns } : {}),
      });
      const status = result.status === "succeeded" ? c.green("succeeded") : c.red(result.status);
      options.out.write(`\nrun ${status} in ${formatDuration(result.durationMs)}\n\n${summary}`);
    },
  };
}
