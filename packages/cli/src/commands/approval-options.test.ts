import { userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { createTestContext } from "../__fixtures__/test-context.js";
import { autoApprove, decidedBy } from "./approval-options.js";

const contextWith = (env: Record<string, string>) => createTestContext({ cwd: "/", env }).context;

describe("approval options", () => {
  it("reads --auto-approve, else REELSMITH_AUTO_APPROVE, and refuses a value it cannot read", () => {
    expect(autoApprove({ autoApprove: true }, contextWith({}))).toBe(true);
    expect(autoApprove({}, contextWith({}))).toBe(false);
    expect(autoApprove({}, contextWith({ REELSMITH_AUTO_APPROVE: "1" }))).toBe(true);
    expect(autoApprove({}, contextWith({ REELSMITH_AUTO_APPROVE: "TRUE" }))).toBe(true);
    expect(autoApprove({}, contextWith({ REELSMITH_AUTO_APPROVE: "0" }))).toBe(false);
    expect(() => autoApprove({}, contextWith({ REELSMITH_AUTO_APPROVE: "maybe" }))).toThrow(
      /REELSMITH_AUTO_APPROVE must be 1 or 0, got 'maybe'/,
    );
  });

  it("names the decider from --by, else REELSMITH_USER, else the OS user", () => {
    expect(decidedBy({ by: "ana" }, contextWith({ REELSMITH_USER: "bo" }))).toBe("ana");
    expect(decidedBy({}, contextWith({ REELSMITH_USER: " bo " }))).toBe("bo");
    expect(decidedBy({ by: "  " }, contextWith({}))).toBe(userInfo().username);
  });
});
