import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { backoffDelay, isRetryableStatus, parseRetryAfter } from "./retry-policy.js";
import { SIGNATURE_HEADER, signNotification } from "./sign-notification.js";

/** The whole delivery's limit, all URLs and attempts together, unless told otherwise. */
export const DEFAULT_NOTIFY_DEADLINE_MS = 10_000;
/** One attempt's limit (never past the whole delivery's). */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 5_000;
/** Attempts per URL. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** What {@link deliverNotification} takes. */
export interface DeliverNotificationOptions {
  /** Every URL gets the same body, in parallel. */
  urls: readonly string[];
  /** The exact bytes to send (and sign). */
  body: string;
  /** Signs each attempt (header `X-Reelsmith-Signature`); without one the body goes unsigned. */
  secret?: string;
  /** Limit of the whole delivery in ms (default 10 000): after it, every URL is given up. */
  deadlineMs?: number;
  /** Limit of one attempt in ms (default 5 000). */
  attemptTimeoutMs?: number;
  /** Attempts per URL (default 5). */
  maxAttempts?: number;
  /** First back-off in ms (default 500), doubled after each attempt. */
  firstDelayMs?: number;
  /** Longest back-off in ms (default 4 000); a longer `Retry-After` is still honoured. */
  maxDelayMs?: number;
  /** Sent as `X-Reelsmith-Event`. */
  event?: string;
  /** Sent as `User-Agent`. */
  userAgent?: string;
  /** Stops the whole delivery early (not the run's signal: an interrupted run is notified too). */
  signal?: AbortSignal;
}

/** Why a URL did not get the notification. */
export type UndeliveredReason =
  /** The receiver answered with a status that is not retried (e.g. 400, 401, 404). */
  | "rejected"
  /** The whole delivery's limit passed before the receiver accepted it. */
  | "deadline"
  /** Every attempt failed with a retryable answer or a network error. */
  | "attempts_exhausted"
  /** The receiver asked (Retry-After) for a wait past the delivery's limit. */
  | "retry_after_too_long"
  /** fetch will not send to this URL at all (e.g. a port it refuses, such as 9 or 6000). */
  | "not_sendable"
  /** `signal` was aborted. */
  | "aborted";

/** What happened to one URL. */
export interface DeliveryOutcome {
  url: string;
  delivered: boolean;
  /** Attempts made (requests sent or tried). */
  attempts: number;
  /** The last HTTP status received, if any answered. */
  status?: number;
  reason?: UndeliveredReason;
  /** The last failure in words (a status, a network error code, a timeout). */
  detail?: string;
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return error instanceof Error ? error.message : String(error);
}

async function deliverOne(
  url: string,
  options: DeliverNotificationOptions,
  deadline: { signal: AbortSignal; endsAt: number },
  deliveryId: string,
): Promise<DeliveryOutcome> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const outcome: DeliveryOutcome = { url, delivered: false, attempts: 0 };
  const stopped = (): UndeliveredReason | undefined =>
    options.signal?.aborted ? "aborted" : deadline.signal.aborted ? "deadline" : undefined;
  while (outcome.attempts < maxAttempts) {
    const before = stopped();
    if (before) return { ...outcome, reason: before };
    outcome.attempts += 1;
    // The deadline's own signal ends the attempt when the whole delivery's time is up.
    const attemptSignal = AbortSignal.any([
      deadline.signal,
      ...(options.signal ? [options.signal] : []),
      AbortSignal.timeout(attemptTimeoutMs),
    ]);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": options.userAgent ?? "reelsmith",
      "x-reelsmith-delivery": deliveryId,
      "x-reelsmith-event": options.event ?? "run.ended",
    };
    if (options.secret) {
      headers[SIGNATURE_HEADER.toLowerCase()] = signNotification({
        body: options.body,
        secret: options.secret,
        timestamp: Math.floor(Date.now() / 1000),
      });
    }
    let retryAfterMs: number | undefined;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body: options.body,
        redirect: "manual",
        signal: attemptSignal,
      });
      await response.body?.cancel().catch(() => undefined);
      outcome.status = response.status;
      outcome.detail = `HTTP ${response.status}`;
      if (response.ok) return { ...outcome, delivered: true, detail: undefined };
      if (!isRetryableStatus(response.status)) return { ...outcome, reason: "rejected" };
      retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
    } catch (error) {
      const reason = stopped();
      if (reason) {
        return {
          ...outcome,
          reason,
          detail: reason === "deadline" ? "no answer before the limit" : "aborted",
        };
      }
      outcome.detail =
        (error as Error).name === "TimeoutError"
          ? `no answer within ${attemptTimeoutMs / 1000} s`
          : describeFailure(error);
      // Refused by fetch itself before any connection: trying again cannot help.
      if (outcome.detail === "bad port") return { ...outcome, reason: "not_sendable" };
    }
    if (outcome.attempts >= maxAttempts) break;
    const backoff = backoffDelay({
      attempt: outcome.attempts,
      firstDelayMs: options.firstDelayMs ?? 500,
      maxDelayMs: options.maxDelayMs ?? 4_000,
    });
    const wait = retryAfterMs ?? backoff;
    if (retryAfterMs !== undefined && Date.now() + retryAfterMs >= deadline.endsAt) {
      return {
        ...outcome,
        reason: "retry_after_too_long",
        detail: `${outcome.detail}, Retry-After ${Math.ceil(retryAfterMs / 1000)} s`,
      };
    }
    try {
      const waitSignal = options.signal
        ? AbortSignal.any([deadline.signal, options.signal])
        : deadline.signal;
      await sleep(wait, undefined, { signal: waitSignal });
    } catch {
      return { ...outcome, reason: stopped() ?? "deadline" };
    }
  }
  return { ...outcome, reason: "attempts_exhausted" };
}

/**
 * POST one body to every URL, each retried with exponential back-off on network errors,
 * timeouts, 429 and 5xx (honouring `Retry-After` when it fits in the limit), never on another
 * status. The whole delivery ends by `deadlineMs` whatever the receivers do; it never
 * throws: it says what happened to each URL. Every attempt of one delivery carries the same
 * `X-Reelsmith-Delivery` id (receivers can drop duplicates) and a fresh signature.
 *
 * @example
 * const outcomes = await deliverNotification({
 *   urls: ["https://hooks.example.com/reelsmith"],
 *   body: JSON.stringify(notification),
 *   secret: process.env.REELSMITH_NOTIFY_SECRET,
 * });
 * for (const o of outcomes) if (!o.delivered) console.error(o.url, o.reason, o.detail);
 */
export async function deliverNotification(
  options: DeliverNotificationOptions,
): Promise<DeliveryOutcome[]> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_NOTIFY_DEADLINE_MS;
  const deadline = { signal: AbortSignal.timeout(deadlineMs), endsAt: Date.now() + deadlineMs };
  const deliveryId = randomUUID();
  return Promise.all(options.urls.map((url) => deliverOne(url, options, deadline, deliveryId)));
}
