import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED, redactingSink } from "./redact.js";

describe("createRedactor", () => {
  it("removes raw, JSON-escaped and URL-encoded forms of a secret", () => {
    const secret = 'sk-a/b"c';
    const redact = createRedactor([secret]);
    expect(redact(`raw ${secret}`)).toBe(`raw ${REDACTED}`);
    expect(redact(JSON.stringify({ key: secret }))).not.toContain('a/b\\"c');
    expect(redact(`url ${encodeURIComponent(secret)}`)).toBe(`url ${REDACTED}`);
  });

  it("ignores missing and very short secrets", () => {
    const redact = createRedactor([undefined, "ab"]);
    expect(redact("ab cd")).toBe("ab cd");
  });

  it("redacts through a sink, reading the current secrets at each write", () => {
    const written: string[] = [];
    let secrets: string[] = [];
    const sink = redactingSink({ write: (t) => written.push(t) }, () => createRedactor(secrets));
    sink.write("before key-1234");
    secrets = ["key-1234"];
    sink.write("after key-1234");
    expect(written).toEqual(["before key-1234", `after ${REDACTED}`]);
  });
});
