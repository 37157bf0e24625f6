import { describe, expect, it } from "vitest";
import { CliError } from "../errors/cli-error.js";
import { displayUrl, resolveNotifyConfig } from "./notify-options.js";

function usageError(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    if (CliError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a usage error");
}

describe("resolveNotifyConfig", () => {
  it("is undefined without a URL", () => {
    expect(resolveNotifyConfig({}, {})).toBeUndefined();
    expect(resolveNotifyConfig({ notify: [] }, { REELSMITH_NOTIFY: " , " })).toBeUndefined();
  });

  it("takes --notify URLs, then REELSMITH_NOTIFY's, each once, with the secret and the limit", () => {
    const config = resolveNotifyConfig(
      { notify: ["https://a.example.com/hook", "http://127.0.0.1:9000/x"] },
      {
        REELSMITH_NOTIFY: "https://b.example.com/h?token=1, https://a.example.com/hook",
        REELSMITH_NOTIFY_SECRET: "whsec-1",
        REELSMITH_NOTIFY_TIMEOUT: "2.5",
      },
    );
    expect(config).toEqual({
      urls: [
        "https://a.example.com/hook",
        "http://127.0.0.1:9000/x",
        "https://b.example.com/h?token=1",
      ],
      secret: "whsec-1",
      deadlineMs: 2_500,
    });
    expect(resolveNotifyConfig({ notify: ["https://a.example.com"] }, {})?.deadlineMs).toBe(10_000);
  });

  it("refuses what is not an http(s) URL, without printing the value", () => {
    const notUrl = usageError(() =>
      resolveNotifyConfig(
        { notify: ["https://ok.example.com", "hooks.example.com/T0/secret"] },
        {},
      ),
    );
    expect(notUrl.message).toBe("the 2nd --notify value is not a URL");
    expect(notUrl.code).toBe("invalid_notify_url");
    expect(notUrl.exitCode).toBe(2);
    const ftp = usageError(() =>
      resolveNotifyConfig({}, { REELSMITH_NOTIFY: "ftp://files.example.com/secret" }),
    );
    expect(ftp.message).toBe(
      "the 1st URL of REELSMITH_NOTIFY is a ftp: URL; notifications are POSTed over HTTP",
    );
    expect(ftp.message).not.toContain("secret");
  });

  it("refuses a limit that is not a number of seconds", () => {
    for (const value of ["0", "-1", "ten", "301"]) {
      const error = usageError(() =>
        resolveNotifyConfig(
          { notify: ["https://a.example.com"] },
          { REELSMITH_NOTIFY_TIMEOUT: value },
        ),
      );
      expect(error.code).toBe("invalid_notify_timeout");
      expect(error.message).toContain(`got '${value}'`);
    }
  });
});

describe("displayUrl", () => {
  it("shows scheme, host and port only", () => {
    expect(displayUrl("https://hooks.example.com/services/T0/B0/XYZ")).toBe(
      "https://hooks.example.com/…",
    );
    expect(displayUrl("http://user:pw@127.0.0.1:8080/?token=1")).toBe("http://127.0.0.1:8080/…");
    expect(displayUrl("https://example.com/")).toBe("https://example.com/");
  });
});
