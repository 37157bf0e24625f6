import { userInfo } from "node:os";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors/cli-error.js";

/**
 * Whether every gate is approved by the run itself: `--auto-approve`, else
 * REELSMITH_AUTO_APPROVE (`1`/`true`/`yes` on, `0`/`false`/`no` or empty off; anything else is
 * refused rather than guessed).
 *
 * @example
 * autoApprove({ autoApprove: true }, context); // true
 */
export function autoApprove(flags: { autoApprove?: boolean }, context: CliContext): boolean {
  if (flags.autoApprove) return true;
  const value = (context.env.REELSMITH_AUTO_APPROVE ?? "").trim().toLowerCase();
  if (["", "0", "false", "no"].includes(value)) return false;
  if (["1", "true", "yes"].includes(value)) return true;
  throw new UsageError(
    `REELSMITH_AUTO_APPROVE must be 1 or 0, got '${context.env.REELSMITH_AUTO_APPROVE}'`,
    {
      code: "bad_auto_approve",
      hint: "set REELSMITH_AUTO_APPROVE=1 to approve every gate, or unset it",
    },
  );
}

/**
 * Who decides a gate: `--by`, else $REELSMITH_USER, else the name of the OS user.
 *
 * @example
 * decidedBy({ by: "ana" }, context); // "ana"
 */
export function decidedBy(flags: { by?: string }, context: CliContext): string {
  const given = flags.by?.trim() || context.env.REELSMITH_USER?.trim();
  if (given) return given;
  try {
    const name = userInfo().username;
    if (name) return name;
  } catch {
    // No user entry for this uid (a container): say so rather than guess.
  }
  throw new UsageError("who decides is unknown: this user has no name", {
    code: "decider_unknown",
    hint: "pass --by NAME (or set REELSMITH_USER)",
  });
}
