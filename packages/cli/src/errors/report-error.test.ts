import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { createTestContext } from "../__fixtures__/test-context.js";
import { CliError, UsageError } from "./cli-error.js";
import { exitCodeOf, reportError } from "./report-error.js";

class APIConnectionError extends Error {
  override name = "APIConnectionError";
  code = "connection_error";
}

describe("reportError", () => {
  it("maps errors to exit codes", () => {
    expect(exitCodeOf(new UsageError("bad"))).toBe(2);
    expect(exitCodeOf(new CliError("x", { code: "x" }))).toBe(1);
    expect(exitCodeOf(new CommanderError(0, "commander.helpDisplayed", ""))).toBe(0);
    expect(exitCodeOf(new CommanderError(1, "commander.unknownOption", ""))).toBe(2);
    expect(exitCodeOf(Object.assign(new Error("x"), { name: "InputError" }))).toBe(2);
    expect(exitCodeOf(Object.assign(new Error("x"), { name: "AbortError" }))).toBe(130);
    expect(exitCodeOf(new Error("boom"))).toBe(1);
  });

  it("prints one message with a hint and no stack, unless debugging", () => {
    const { context, output } = createTestContext({ cwd: "/" });
    expect(reportError(new APIConnectionError("connect ECONNREFUSED"), context)).toBe(1);
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
