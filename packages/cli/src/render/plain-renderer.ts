import type { ResumeReason, RunEvent, RunEventOf, RunResultView } from "../contracts/run-event.js";
import { describeError } from "./describe-error.js";
import { budgetReachedLine, formatBytes, formatDuration, stepLabel } from "./format.js";
import { createEstimateLines } from "./format-estimate.js";
import { formatWaiting } from "./format-waiting.js";
import { keptBecause } from "./kept-because.js";
import type { TextSink } from "./redact.js";
import type { Renderer } from "./renderer.js";
import { applyEvent, createRunView } from "./run-state.js";
import { displayPath, formatSummary, resolveOutput } from "./summary.js";

/** Options of {@link createPlainRenderer}. */
export interface PlainRendererOptions {
  out: TextSink;
  cwd: string;
}

/**
 * The lines a plain renderer prints for one event (none for events not worth a line, such as
 * streamed tokens, progress ticks, or a poll that did not change a job's status).
 *
 * @example
 * const lines = createPlainLines({ cwd: "/work" });
 * lines({ type: "step.start", seq: 1, time: "…", step: "clips" }); // ["[clips] started"]
 */
export function createPlainLines(options: { cwd: string }): (event: RunEvent) => string[] {
  const lastStatus = new Map<string, string>();
  let runDir = options.cwd;
  // Why this session goes on (a resumed run): said for each step it keeps.
  let resumedAfter: ResumeReason | undefined;
  const estimateLines = createEstimateLines();
  // One line per moment worth reading of a unit's work, whatever its kind: a job submitted,
  // a job's status when it changes, a file saved, tokens used.
  const progressLines = (event: RunEventOf<"unit.progress">): string[] => {
    const label = `[${stepLabel(event.step, event.index)}]`;
    switch (event.stage) {
      case "usage":
        return event.usage.total_tokens ? [`${label} ${event.usage.total_tokens} tokens`] : [];
      case "submitted":
        lastStatus.set(event.job, "submitted");
        return [
          `${label} ${event.kind} job ${event.job} ${event.resumed ? "re-attached" : "submitted"}`,
        ];
      case "status": {
        if (lastStatus.get(event.job) === event.status) return [];
        lastStatus.set(event.job, event.status);
        const polls = `${event.polls} poll${event.polls === 1 ? "" : "s"}`;
        return [`${label} ${event.kind} job ${event.job} ${event.status} (${polls})`];
      }
      case "saved":
        return [
          `${label} saved ${displayPath(resolveOutput(event.file, runDir), options.cwd)} (${formatBytes(event.bytes)})`,
        ];
      default:
        return [];
    }
  };
  return (event) => {
    switch (event.type) {
      case "run.start":
        runDir = event.runDir;
        resumedAfter = event.resumedAfter;
        return [
          `${event.resumed ? "resume" : "run"} ${event.name}: ${event.steps.length} steps, directory ${displayPath(event.runDir, options.cwd)}`,
        ];
      case "run.estimate":
        return estimateLines(event.estimate, event.maxCredits);
      case "run.end":
        return [`run ${event.status} in ${formatDuration(event.durationMs)}`];
      case "step.start":
        return [`[${event.step}] started`];
      case "step.end":
        if (event.reused) return [`[${event.step}] ${keptBecause(resumedAfter)}`];
        return [
          `[${event.step}] ${event.cached ? "reused from cache" : "done"} in ${formatDuration(event.durationMs)}`,
        ];
      case "step.skip":
        return [`[${event.step}] skipped: ${event.reason}`];
      case "step.wait":
        return [`[${event.step}] ${event.reason}`];
      case "run.waiting":
        return formatWaiting(event);
      case "step.fail":
        return [
          `[${event.step}] failed: ${describeError(event.error)}${event.continued ? " (continuing)" : ""}`,
        ];
      case "step.retry":
        return [
          `[${stepLabel(event.step, event.item)}] attempt ${event.attempt} failed (${describeError(event.error)}), retrying in ${formatDuration(event.delayMs)}`,
        ];
      case "item.start":
        return [
          `[${stepLabel(event.step, event.index)}] started (${event.index + 1} of ${event.total})`,
        ];
      case "item.end":
        return [
          `[${stepLabel(event.step, event.index)}] ${event.status}${event.error ? `: ${describeError(event.error)}` : ""}`,
        ];
      case "unit.progress":
        return progressLines(event);
      case "budget.reached":
        return [`${budgetReachedLine(event.credits, event.maxCredits)}; no new paid requests`];
      case "log":
        // Debug lines (each ffmpeg command line) are for --json and events.ndjson, as on a TTY.
        if (event.level === "debug") return [];
        return [`${event.level}${event.step ? ` [${event.step}]` : ""}: ${event.message}`];
      default:
        return [];
    }
  };
}

/**
 * A renderer for logs (CI, pipes): one line per event worth reading, no escape codes, then the
 * summary table and the output paths.
 *
 * @example
 * const renderer = createPlainRenderer({ out: process.stdout, cwd: process.cwd() });
 */
export function createPlainRenderer(options: PlainRendererOptions): Renderer {
  const view = createRunView();
  const lines = createPlainLines({ cwd: options.cwd });
  return {
    event(event) {
      applyEvent(view, event);
      for (const line of lines(event)) options.out.write(`${line}\n`);
    },
    note(message) {
      options.out.write(`${message}\n`);
    },
    end(result: RunResultView) {
      // On a terminal (CI=1 or TERM=dumb) its width; in a pipe or a log nothing is cut.
      const width = options.out.isTTY ? options.out.columns : undefined;
      options.out.write(
        `\n${formatSummary(view, result, { cwd: options.cwd, ...(width ? { width } : {}) })}`,
      );
    },
  };
}
