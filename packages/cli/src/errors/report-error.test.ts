import { ReelsmithError } from "@reelsmith/core";
import { APIConnectionError, APIUserAbortError } from "@reelsmith/core/errors";
import {
  ApprovalRefusedError,
  BudgetEstimateError,
  BudgetExceededError,
  InputError,
  StepWaitingError,
} from "@reelsmith/runner/errors";
import { reviveError, serializeError } from "@reelsmith/runner/internal";
import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { createTestContext } from "../__fixtures__/test-context.js";
import { CliError, UsageError } from "./cli-error.js";
import { exitCodeOf, reportError } from "./report-error.js";

describe("reportError", () => {
  it("maps errors to exit codes", () => {
    expect(exitCodeOf(new UsageError("bad"))).toBe(2);
    expect(exitCodeOf(new CliError("x", { code: "x" }))).toBe(1);
    expect(exitCodeOf(new CommanderError(0, "commander.helpDisplayed", ""))).toBe(0);
    expect(exitCodeOf(new CommanderError(1, "commander.unknownOption", ""))).toBe(2);
    expect(exitCodeOf(new InputError([{ input: "scenes", message: "not a number" }]))).toBe(2);
    expect(exitCodeOf(new BudgetEstimateError({ credits: 9, steps: {} } as never, 5))).toBe(2);
    expect(exitCodeOf(new BudgetExceededError(520, 500))).toBe(3);
    expect(exitCodeOf(new StepWaitingError("review", "waits for approval"))).toBe(4);
    expect(exitCodeOf(new APIUserAbortError())).toBe(130);
    expect(exitCodeOf(Object.assign(new Error("x"), { name: "AbortError" }))).toBe(130);
    expect(exitCodeOf(new Error("boom"))).toBe(1);
    // By category, not by name: a plain error named like a library error is a plain failure.
    expect(exitCodeOf(Object.assign(new Error("x"), { name: "InputError" }))).toBe(1);
  });

  it("maps an error that crossed a process as data by the category it kept", () => {
    const revived = reviveError(
      JSON.parse(JSON.stringify(serializeError(new InputError([{ input: "a", message: "b" }])))),
    );
    expect(exitCodeOf(revived)).toBe(2);
    const budget = reviveError(
      JSON.parse(JSON.stringify(serializeError(new BudgetExceededError(5, 4)))),
    );
    expect(exitCodeOf(budget)).toBe(3);
    class SomeNewError extends ReelsmithError {}
    expect(exitCodeOf(new SomeNewError("x", { category: "invalid" }))).toBe(2);
  });

  it("takes the hint from the error, else from its category", () => {
    const refused = createTestContext({ cwd: "/" });
    reportError(
      new ApprovalRefusedError("not_waiting", "runs/x is not waiting at a gate"),
      refused.context,
    );
    expect(refused.output.stderr).toBe(
      "error: runs/x is not waiting at a gate (not_waiting)\n  hint: see where the run stands with `reelsmith report RUN_DIR` (or `reelsmith status RUN_ID --database …`)\n",
    );
    const waiting = createTestContext({ cwd: "/" });
    expect(reportError(new StepWaitingError("review", "waits for approval"), waiting.context)).toBe(
      4,
    );
    expect(waiting.output.stderr).toContain("hint: decide with `reelsmith approve RUN_DIR`");
  });

  it("prints one message with a hint and no stack, unless debugging", () => {
    const { context, output } = createTestContext({ cwd: "/" });
    expect(
      reportError(
        new APIConnectionError("connect ECONNREFUSED", { code: "connection_error" }),
        context,
      ),
    ).toBe(1);
    expect(output.stderr).toBe(
      "error: connect ECONNREFUSED (connection_error)\n  hint: check the base URL (--base-url, REELSMITH_BASE_URL) and that the service is reachable\n  (run with --debug for details)\n",
    );
    const debug = createTestContext({ cwd: "/" });
    debug.context.debug = true;
    reportError(new Error("outer", { cause: new Error("inner") }), debug.context);
    expect(debug.output.stderr).toMatch(/\n\s+at /);
    expect(debug.output.stderr).toContain("caused by: Error: inner");
  });

  it("never prints a secret, even when an error message holds it", () => {
    const { context, output } = createTestContext({ cwd: "/" });
    context.secrets.add("sk-live-abcdef");
    reportError(new Error("bad key sk-live-abcdef"), context);
    expect(output.stderr).not.toContain("sk-live-abcdef");
    expect(output.stderr).toContain("bad key [redacted]");
  });
});
