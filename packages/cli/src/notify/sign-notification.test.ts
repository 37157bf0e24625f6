import { describe, expect, it } from "vitest";
import { signNotification, verifyNotificationSignature } from "./sign-notification.js";

describe("notification signatures", () => {
  const body = '{"status":"succeeded"}';
  const timestamp = 1_767_225_600;

  it("verifies a signature within the tolerance and refuses a stale or malformed one", () => {
    const header = signNotification({ body, secret: "s3cret", timestamp });
    expect(header).toMatch(/^t=1767225600,v1=[0-9a-f]{64}$/);
    const check = (options: { header?: string; now?: number; body?: string }) =>
      verifyNotificationSignature({
        body: options.body ?? body,
        header: "header" in options ? options.header : header,
        secret: "s3cret",
        now: options.now ?? timestamp + 10,
      });
    expect(check({})).toBe(true);
    expect(check({ now: timestamp + 301 })).toBe(false);
    expect(check({ now: timestamp - 301 })).toBe(false);
    expect(check({ header: undefined })).toBe(false);
    expect(check({ header: "v1=abc" })).toBe(false);
    expect(check({ header: header.replace(/.$/, (c) => (c === "0" ? "1" : "0")) })).toBe(false);
    // The timestamp is signed too: moving it breaks the signature.
    expect(check({ header: header.replace("t=1767225600", "t=1767225601") })).toBe(false);
    // A receiver rotating secrets may get several v1 values: any one may match.
    expect(check({ header: `${header.replace(/v1=.*/, "v1=00")},${header.split(",")[1]}` })).toBe(
      true,
    );
  });
});
