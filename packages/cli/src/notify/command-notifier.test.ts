import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext } from "../__fixtures__/test-context.js";
import { executeCli } from "../program.js";
import { startWebhookReceiver } from "./__fixtures__/webhook-receiver.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "reelsmith-notify-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("notify settings of run and resume", () => {
  it("refuses --notify with --detach: nothing would see the run end", async () => {
    const { context, output } = createTestContext({ cwd: dir });
    const code = await executeCli(
      ["run", "p.yaml", "--detach", "--notify", "https://hooks.example.com/x"],
      context,
    );
    expect(code).toBe(2);
    expect(output.stderr).toContain("--notify needs a process that sees the run end");
  });

  it("refuses a bad REELSMITH_NOTIFY_TIMEOUT or URL before anything runs, and on resume too", async () => {
    const timeout = createTestContext({
      cwd: dir,
      env: { REELSMITH_NOTIFY: "https://hooks.example.com/x", REELSMITH_NOTIFY_TIMEOUT: "soon" },
    });
    expect(await executeCli(["run", "missing.yaml"], timeout.context)).toBe(2);
    expect(timeout.output.stderr).toContain(
      "REELSMITH_NOTIFY_TIMEOUT must be a number of seconds above 0 and at most 300, got 'soon'",
    );
    const url = createTestContext({ cwd: dir });
    expect(await executeCli(["resume", "runs/x", "--notify", "not a url"], url.context)).toBe(2);
    expect(url.output.stderr).toContain("the 1st --notify value is not a URL");
    expect(await readdir(dir)).toEqual([]);
  });

  it("shows a webhook URL's scheme and host only, never its path", async () => {
    const gone = await startWebhookReceiver();
    const url = gone.url.replace("/hooks/reelsmith", "/services/T0/B0/secret-path");
    await gone.close();
    const { context, output } = createTestContext({
      cwd: dir,
      env: { REELSMITH_NOTIFY_TIMEOUT: "0.5" },
    });
    const code = await executeCli(["run", "missing.yaml", "--notify", url], context);
    expect(code).toBe(2);
    const origin = new URL(url).origin;
    expect(output.stderr).toMatch(
      new RegExp(
        `^notification not delivered to ${origin}/…: .+; the run's result is unchanged$`,
        "m",
      ),
    );
    expect(output.stdout + output.stderr).not.toContain("secret-path");
  });
});
