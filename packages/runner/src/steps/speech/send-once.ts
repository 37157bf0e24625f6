import { basename } from "node:path";
import { executionExtras } from "../../executor/execution-context.js";
import { unitIdempotencyKey } from "../../executor/unit-idempotency-key.js";
import type { StepRunContext } from "../step-kind.js";
import { UnsettledRequestError } from "./unsettled-request-error.js";

/** One paid, synchronous request of a unit, and how it is sent, priced and journaled. */
export interface PaidRequest<Result> {
  /** The facts' prefix (`<name>.intent`, `<name>.done`) and the key's last part. */
  name: "speech" | "words";
  /** The request as the service names it, for messages: "POST /v1/audio/speech". */
  label: string;
  /** What the budget is told of the request (model, …). */
  request: Record<string, unknown>;
  /** What an answer makes, counted in the run's totals by noun (`{ narrations: 1 }`). */
  made?: Record<string, number>;
  /** What it is expected to cost (reserved within the budget); undefined: unknown. */
  expected: number | undefined;
  /** Sends it with this key; resolves with the answer. */
  send(idempotencyKey: string): Promise<Result>;
  /** What the answer cost, and the facts kept of it (journaled with `<name>.done`). */
  settle(result: Result): Promise<{
    credits: number;
    creditsFrom?: "price";
    /** Its cost in a unit with no rate to credits (`{ usd: 0.2 }`), totalled apart. */
    otherUnits?: Record<string, number>;
    fact: Record<string, unknown>;
  }>;
  /** Whether a journaled answer can still be used (its file is still there). */
  usable?(fact: Record<string, unknown>): boolean;
  /**
   * Whether the service answers a resent key without a second charge (for a request whose
   * answer was lost); default the client's `honoursIdempotencyKeys`.
   */
  honoursIdempotencyKeys?: boolean;
  /** The provider takes no idempotency key at all (said so when its answer is lost). */
  keyless?: boolean;
  /** A file the request writes, named in the message when its answer cannot be settled. */
  file?: string;
}

/** The facts of a request once answered: its key, its credits and what `settle` kept. */
export type DoneFact = Record<string, unknown> & { idempotencyKey: string; credits: number };

/** True for an error the service answered with (an HTTP status): the request was refused. */
function answered(error: unknown): boolean {
  return typeof (error as { status?: unknown })?.status === "number";
}

/**
 * Sends a paid, synchronous request of a unit at most once, as the video kind submits a job:
 * the budget reserves its expected price first; a `<name>.intent` fact (key, time) is durable
 * before the request leaves; the answer's facts and price are journaled as `<name>.done`,
 * counted in the ledger under `charged:<key>` (once, however often the unit is resumed) and
 * spent from the budget. An attempt that finds an intent no answer settled (a kill while the
 * request was in flight) sends it again with the same Idempotency-Key when the client says
 * the service honours keys (the service answers it without a second charge), else fails with
 * {@link UnsettledRequestError}, which says how to reconcile. A journaled answer is reused.
 * @example const done = await sendOnce(context, { name: "speech", label: "POST /v1/audio/speech", … });
 */
export async function sendOnce<Result>(
  context: StepRunContext,
  paid: PaidRequest<Result>,
): Promise<DoneFact> {
  const { journal, stepId, index } = context;
  const extras = executionExtras(context);
  const budget = extras?.budget;
  const countCharge = async (fact: DoneFact) => {
    const key = fact.idempotencyKey;
    const otherUnits = fact.otherUnits as Record<string, number> | undefined;
    const counted = await context.ledger.record({
      totals: {
        credits: fact.credits,
        ...(paid.made ? { made: paid.made } : {}),
        ...(otherUnits ? { otherUnits } : {}),
      },
      ...(fact.creditsFrom === "price" ? { creditsFrom: "price" as const } : {}),
      key: `charged:${key}`,
    });
    if (counted) await budget?.spend(fact.credits, { key });
  };

  const done = journal.recall(`${paid.name}.done`) as DoneFact | undefined;
  if (done && (paid.usable?.(done) ?? true)) {
    // Answered (and charged) before: counted here only when a kill came between the fact
    // and its ledger entry.
    await countCharge(done);
    return done;
  }
  const intent = journal.recall(`${paid.name}.intent`);
  // A request that may have been paid: an intent no answer settled, or an answer whose file
  // is gone. It is only ever sent again under its own key.
  const open =
    done ?? (intent && intent.settled !== true && intent.answered !== true ? intent : undefined);
  let submission: number;
  let key: string;
  if (open && typeof open.idempotencyKey === "string") {
    key = open.idempotencyKey;
    submission = Number(open.submission ?? 1);
    const client = context.client as { honoursIdempotencyKeys?: unknown };
    if ((paid.honoursIdempotencyKeys ?? client.honoursIdempotencyKeys) !== true) {
      throw new UnsettledRequestError({
        step: stepId,
        index,
        request: paid.label,
        idempotencyKey: key,
        ...(typeof open.sinceMs === "number" ? { sinceMs: open.sinceMs } : {}),
        ...(paid.file ? { file: paid.file } : {}),
        ...(paid.keyless ? { keyless: true } : {}),
      });
    }
  } else {
    context.signal.throwIfAborted();
    // A stopping run pays for nothing new.
    context.stopSignal?.throwIfAborted();
    submission = Number(intent?.submission ?? 0) + 1;
    const runId = extras?.runId ?? basename(context.runDir);
    key = unitIdempotencyKey({
      runId,
      step: stepId,
      index,
      submission,
      take: context.take,
      request: paid.name,
    });
  }
  await budget?.assertCanSubmit({
    key,
    request: { ...paid.request },
    ...(paid.expected !== undefined ? { credits: paid.expected } : {}),
  });
  if (!open && context.stopSignal?.aborted) {
    // It stopped while this waited for the budget: give the reservation back.
    await budget?.release?.({ key });
    context.stopSignal.throwIfAborted();
  }
  const sinceMs = Date.now();
  // Durable before the request leaves: a kill from here on finds it and settles it.
  await journal.record(`${paid.name}.intent`, { idempotencyKey: key, submission, sinceMs });
  let result: Result;
  try {
    result = await paid.send(key);
  } catch (error) {
    // Refused by the service: nothing was made, nothing is left to settle.
    if (answered(error)) {
      await journal.record(`${paid.name}.intent`, {
        idempotencyKey: key,
        submission,
        sinceMs,
        settled: true,
      });
    }
    await budget?.release?.({ key });
    throw error;
  }
  const { credits, creditsFrom, otherUnits, fact } = await paid.settle(result);
  const answer: DoneFact = {
    ...fact,
    idempotencyKey: key,
    submission,
    credits,
    ...(creditsFrom ? { creditsFrom } : {}),
    ...(otherUnits ? { otherUnits } : {}),
  };
  await journal.record(`${paid.name}.done`, answer);
  await countCharge(answer);
  return answer;
}
