import type { Grant, SpendingLimits } from "./spending-limits.js";
import { type Alternative, RefusalError } from "./tool-result.js";

/** A paid call about to be made, with the certain part of what it is expected to cost. */
export interface PaidCall {
  /** What the call is, for the messages ("the run", "the retake of clips #1"). */
  what: string;
  /** The run budget the call asks for (what the run spent counts). */
  asked?: number;
  /** The run's own budget (its `max_credits`, or the one it started with). */
  own?: number;
  /** What the run spent before the call (0 for a new run). */
  spent: number;
  /** The certain part of its estimate, in credits. */
  estimate: number;
  /** The estimate is the whole cost, not its least (nothing is known only at run time). */
  complete?: boolean;
}

/**
 * The budget of a paid call — `min(asked, ceiling, spent + what is left of the total)` — or
 * its refusal, before anything is sent, when the certain part of its estimate is over what
 * it may spend, with the numbers and the calls that would fit (`alternatives` is given what
 * the call may spend).
 * @example const grant = await grantPaidCall(limits, { what: "the run", spent: 0, estimate: 27 }, async () => []);
 */
export async function grantPaidCall(
  limits: SpendingLimits,
  call: PaidCall,
  alternatives: (allowance: number) => Promise<Alternative[]>,
): Promise<Grant> {
  const grant = limits.grant({
    spent: call.spent,
    ...(call.asked === undefined ? {} : { asked: call.asked }),
    ...(call.own === undefined ? {} : { own: call.own }),
  });
  const numbers = {
    estimate: call.estimate,
    spent: call.spent,
    ...(grant.budget === undefined ? {} : { budget: grant.budget }),
    ...(grant.ceiling === undefined ? {} : { ceiling: grant.ceiling }),
    ...(grant.left === undefined ? {} : { left: grant.left }),
  };
  if (grant.left === 0) {
    throw new RefusalError({
      code: "total_spent",
      message: `this server's total of ${limits.ceiling.maxTotalCredits} credits is spent (or held by calls still running); ${call.what} was not started`,
      hint: "wait for the running calls to end (their unused credits come back), or ask the person who started the server for a larger --max-total-credits",
      ...numbers,
      alternatives: [{ tool: "status", arguments: {}, why: "shows what each run spent" }],
    });
  }
  const allowance = grant.allowance;
  if (allowance === undefined || call.estimate <= allowance) return grant;
  const binding =
    grant.ceiling !== undefined && grant.budget === grant.ceiling
      ? "the server's ceiling (--max-credits)"
      : grant.left !== undefined && grant.budget === call.spent + grant.left
        ? "what is left of the server's total (--max-total-credits)"
        : call.asked !== undefined && grant.budget === call.asked
          ? "the budget asked for (maxCredits)"
          : "the run's own budget (max_credits)";
  const fromServer = binding.startsWith("the server") || binding.startsWith("what is left");
  throw new RefusalError({
    code: fromServer ? "over_ceiling" : "over_budget",
    message: `${call.what} is expected to cost ${call.complete ? "" : "at least "}${call.estimate} credits, over the ${allowance} it may spend (${binding}); nothing was sent`,
    hint: fromServer
      ? "make the call smaller (see alternatives); an agent cannot raise the server's limits"
      : "make the call smaller (see alternatives), or ask for a larger maxCredits within the server's ceiling",
    ...numbers,
    alternatives: await alternatives(allowance),
  });
}
