import { access } from "node:fs/promises";
import { createRequire } from "node:module";
import type { RunEvent } from "../contracts/run-event.js";
import { ExitCode } from "../errors/cli-error.js";
import { exitCodeOf } from "../errors/report-error.js";
import { createRedactor } from "../render/redact.js";
import { buildNotification } from "./build-notification.js";
import { type DeliveryOutcome, deliverNotification } from "./deliver-notification.js";
import type { NotificationStatus } from "./notification.js";
import { notificationStatus } from "./notification-status.js";
import { displayUrl, type NotifyConfig } from "./notify-options.js";
import { createRunFacts, foldRunFact } from "./run-facts.js";

/** How a run ended, as the command that ran it knows. */
export interface RunEnding {
  /** The run's own status (`succeeded`, `failed`, `cancelled`, …) when it reached its end. */
  runStatus: string;
  exitCode: number;
  /** This process was interrupted (Ctrl-C, SIGTERM). */
  interrupted?: boolean;
  /** The report.html written for the run, if any. */
  report?: string;
}

/** Tells the `--notify` URLs how a run ended; built by {@link createRunNotifier}. */
export interface RunNotifier {
  /** Say which pipeline runs, once the command knows (a resume learns it from the run). */
  pipeline(pipeline: { name?: string; path?: string }): void;
  /** Every event of the run passes here (facts are folded from them). */
  event(event: RunEvent): void;
  /** Send the notification of a run that ended; resolves once delivered or given up. */
  ended(ending: RunEnding): Promise<DeliveryOutcome[]>;
  /** Send the notification of a run that could not start or broke off with an error. */
  failed(error: unknown): Promise<DeliveryOutcome[]>;
}

/** What {@link createRunNotifier} takes besides the settings. */
export interface RunNotifierOptions {
  /** The pipeline, as far as the command knows it. */
  pipeline: { name?: string; path?: string };
  /** Prints one line (the renderer's `note`, or stderr). */
  note: (line: string) => void;
  /** Values never to send (API keys): the body is redacted against them. */
  secrets: Iterable<string>;
}

function version(): string {
  const require = createRequire(import.meta.url);
  return (require("../../package.json") as { version: string }).version;
}

const REASONS: Record<string, string> = {
  rejected: "the receiver refused it",
  deadline: "no answer within the limit",
  attempts_exhausted: "every attempt failed",
  retry_after_too_long: "the receiver asked to wait past the limit",
  not_sendable: "fetch refuses to send there",
  aborted: "stopped",
};

function describeOutcome(outcome: DeliveryOutcome, deadlineMs: number): string {
  const where = displayUrl(outcome.url);
  const attempts = `${outcome.attempts} attempt${outcome.attempts === 1 ? "" : "s"}`;
  if (outcome.delivered)
    return `notification delivered to ${where} (HTTP ${outcome.status}, ${attempts})`;
  const reason =
    outcome.reason === "deadline"
      ? `no answer within the ${deadlineMs / 1000} s limit`
      : (REASONS[outcome.reason ?? ""] ?? "it failed");
  const detail = outcome.detail && outcome.reason !== "deadline" ? `, ${outcome.detail}` : "";
  return `notification not delivered to ${where}: ${reason} (${attempts}${detail}); the run's result is unchanged`;
}

/**
 * A notifier for one run: it folds the run's events, and when the run ends POSTs one signed
 * JSON summary to every URL (see `deliverNotification`), printing one line per URL. It
 * never throws and never changes the run's exit code; it sends at most once.
 *
 * @example
 * const notifier = createRunNotifier(config, { pipeline: { path }, note, secrets: context.secrets });
 * for await (const event of stream) { renderer.event(event); notifier.event(event); }
 * await notifier.ended({ runStatus: result.status, exitCode });
 */
export function createRunNotifier(config: NotifyConfig, options: RunNotifierOptions): RunNotifier {
  const facts = createRunFacts();
  let pipeline = { ...options.pipeline };
  let sent = false;
  const send = async (
    status: NotificationStatus,
    exitCode: number,
    extra: { report?: string; error?: { message: string; code?: string } },
  ): Promise<DeliveryOutcome[]> => {
    if (sent) return [];
    sent = true;
    const report = extra.report
      ? await access(extra.report).then(
          () => extra.report,
          () => undefined,
        )
      : undefined;
    const notification = buildNotification({
      facts,
      status,
      exitCode,
      pipeline,
      ...(report ? { report } : {}),
      ...(extra.error ? { error: extra.error } : {}),
    });
    const redact = createRedactor([...options.secrets]);
    const outcomes = await deliverNotification({
      urls: config.urls,
      body: redact(JSON.stringify(notification)),
      ...(config.secret ? { secret: config.secret } : {}),
      deadlineMs: config.deadlineMs,
      event: notification.event,
      userAgent: `reelsmith/${version()}`,
    });
    for (const outcome of outcomes) options.note(describeOutcome(outcome, config.deadlineMs));
    return outcomes;
  };
  return {
    pipeline(known) {
      pipeline = { ...pipeline, ...known };
    },
    event(event) {
      foldRunFact(facts, event);
    },
    ended(ending) {
      const status = notificationStatus({
        runStatus: ending.runStatus,
        interrupted: ending.interrupted === true,
        budgetReached: facts.budgetReached,
        ...(typeof facts.error?.category === "string"
          ? { errorCategory: facts.error.category }
          : {}),
      });
      return send(status, ending.exitCode, ending.report ? { report: ending.report } : {});
    },
    failed(error) {
      const exitCode = exitCodeOf(error);
      const like = (error ?? {}) as { message?: unknown; code?: unknown };
      const message =
        typeof like.message === "string" && like.message ? like.message : String(error);
      const status = exitCode === ExitCode.interrupted ? "interrupted" : "failed";
      return send(status, exitCode, {
        error: { message, ...(typeof like.code === "string" ? { code: like.code } : {}) },
      });
    },
  };
}
