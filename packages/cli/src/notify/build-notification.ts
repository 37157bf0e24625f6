import { resolveOutput } from "../render/display-path.js";
import { outputFiles } from "../render/run-state.js";
import {
  type NotificationError,
  type NotificationStatus,
  notificationEvent,
  type RunNotification,
} from "./notification.js";
import type { RunFacts } from "./run-facts.js";

/** Longest text output carried whole; longer ones are cut (chat webhooks limit bodies). */
export const MAX_TEXT_OUTPUT = 4096;

/** What {@link buildNotification} takes. */
export interface BuildNotificationOptions {
  /** The run's facts, folded from its events (empty when it never started). */
  facts: RunFacts;
  status: NotificationStatus;
  exitCode: number;
  /** The pipeline, as far as it is known (a resume by run id may know only its name). */
  pipeline: { name?: string; path?: string };
  /** The report.html that was written, if any. */
  report?: string;
  /** The error that ended the run, when the events did not carry one (e.g. it never started). */
  error?: NotificationError;
  /** The end time when the events did not say it. */
  now?: Date;
}

function cutText(value: unknown): unknown {
  if (typeof value !== "string" || value.length <= MAX_TEXT_OUTPUT) return value;
  return `${value.slice(0, MAX_TEXT_OUTPUT)}… (cut: ${value.length} characters in all)`;
}

function oneLine(options: BuildNotificationOptions, credits: string): string {
  const { facts, status, pipeline } = options;
  const name = pipeline.name ?? facts.name ?? pipeline.path ?? "pipeline";
  const details: string[] = [];
  if (facts.durationMs !== undefined) details.push(`in ${(facts.durationMs / 1000).toFixed(1)} s`);
  if (credits) details.push(credits);
  let line = [`reelsmith: ${name} ${status.replaceAll("_", " ")}`, details.join(", ")]
    .filter(Boolean)
    .join(" ");
  const error = options.error ?? facts.error;
  if (status !== "succeeded" && error?.message) line += `: ${error.message}`;
  if (facts.runDir) line += ` (${facts.runDir})`;
  return line;
}

/**
 * The body of a run's notification, from what its events told and how the process ends.
 * Nothing is invented: a figure the run did not report is left out.
 *
 * @example
 * const body = buildNotification({
 *   facts, status: "succeeded", exitCode: 0,
 *   pipeline: { name: "storyboard", path: "/work/pipeline.yaml" },
 * });
 */
export function buildNotification(options: BuildNotificationOptions): RunNotification {
  const { facts } = options;
  const outputs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(facts.outputs ?? {})) outputs[name] = cutText(value);
  const files: Record<string, string> = {};
  for (const [name, file] of outputFiles(facts.outputs)) {
    files[name] = facts.runDir ? resolveOutput(file, facts.runDir) : file;
  }
  const sourceError = options.error ?? facts.error;
  const error: NotificationError | undefined = sourceError
    ? {
        message: sourceError.message,
        ...(typeof sourceError.code === "string" ? { code: sourceError.code } : {}),
        ...(typeof sourceError.step === "string" ? { step: sourceError.step } : {}),
      }
    : undefined;
  const credits = facts.credits
    ? `${facts.credits.spent} credit${facts.credits.spent === 1 ? "" : "s"}`
    : "";
  const pipeline = {
    ...((options.pipeline.name ?? facts.name) ? { name: options.pipeline.name ?? facts.name } : {}),
    ...(options.pipeline.path ? { path: options.pipeline.path } : {}),
  };
  return {
    schema: 1,
    event: notificationEvent(options.status),
    status: options.status,
    text: oneLine({ ...options, ...(error ? { error } : {}) }, credits),
    exitCode: options.exitCode,
    pipeline,
    ...(facts.runId ? { runId: facts.runId } : {}),
    ...(facts.runDir ? { runDir: facts.runDir } : {}),
    ...(options.report ? { report: options.report } : {}),
    ...(facts.resumed !== undefined ? { resumed: facts.resumed } : {}),
    ...(facts.startedAt ? { startedAt: facts.startedAt } : {}),
    endedAt: facts.endedAt ?? (options.now ?? new Date()).toISOString(),
    ...(facts.durationMs !== undefined ? { durationMs: facts.durationMs } : {}),
    ...(facts.credits ? { credits: facts.credits } : {}),
    ...(facts.tokens !== undefined ? { tokens: facts.tokens } : {}),
    ...(facts.made !== undefined ? { made: facts.made } : {}),
    outputs,
    files,
    ...(error ? { error } : {}),
  };
}
