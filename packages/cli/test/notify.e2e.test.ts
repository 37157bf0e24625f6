// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipeline expressions
import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from "../src/notify/__fixtures__/webhook-receiver.js";
import { verifyNotificationSignature } from "../src/notify/sign-notification.js";
import { cleanEnv, EXAMPLES, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-notify-key-7f3a9c2b";
const SECRET = "whsec-e2e-notify-5d1e";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
const receivers: WebhookReceiver[] = [];
async function receiver(...args: Parameters<typeof startWebhookReceiver>) {
  const started = await startWebhookReceiver(...args);
  receivers.push(started);
  return started;
}
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.01 });
  work = await tempDir("reelsmith-notify-");
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

function serviceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY, ...extra });
}

function bodyOf(request: { body: Buffer }): Record<string, unknown> {
  return JSON.parse(request.body.toString("utf8")) as Record<string, unknown>;
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe("run --notify (built CLI)", () => {
  it("POSTs one signed summary of a succeeded run, on the third attempt to a receiver that answered 500 twice, never with the API key", async () => {
    const flaky = await receiver((n) => ({ status: n < 2 ? 500 : 200 }));
    const steady = await receiver();
    const result = await runCli(
      ["run", STORYBOARD, "--input", "scenes=2", "--run-dir", "runs/ok", "--notify", flaky.url],
      {
        cwd: work.dir,
        env: serviceEnv({ REELSMITH_NOTIFY: steady.url, REELSMITH_NOTIFY_SECRET: SECRET }),
      },
    );
    expect(result.code).toBe(0);
    expect(flaky.requests).toHaveLength(3);
    expect(steady.requests).toHaveLength(1);
    const origin = new URL(flaky.url).origin;
    expect(result.stderr).toContain(`notification delivered to ${origin}/… (HTTP 200, 3 attempts)`);
    expect(result.stderr).not.toContain("unsigned");
    // The URLs' paths (often their credential) and the secret are never printed.
    expect(result.stdout + result.stderr).not.toContain("token=abc");
    expect(result.stdout + result.stderr).not.toContain(SECRET);

    for (const request of [...flaky.requests, ...steady.requests]) {
      const header = request.headers["x-reelsmith-signature"];
      expect(
        verifyNotificationSignature({ body: request.body, header: String(header), secret: SECRET }),
      ).toBe(true);
      expect(request.body.toString("utf8")).not.toContain(API_KEY);
      expect(JSON.stringify(request.headers)).not.toContain(API_KEY);
    }
    const notification = bodyOf(steady.requests[0] ?? { body: Buffer.from("{}") });
    const runDir = path.join(work.dir, "runs", "ok");
    expect(notification).toMatchObject({
      schema: 1,
      event: "run.ended",
      status: "succeeded",
      exitCode: 0,
      pipeline: { name: "storyboard", path: STORYBOARD },
      runDir,
      report: path.join(runDir, "report.html"),
      resumed: false,
      files: { video: path.join(runDir, "final.mp4") },
    });
    expect(typeof notification.runId).toBe("string");
    expect(Date.parse(String(notification.startedAt))).toBeLessThanOrEqual(
      Date.parse(String(notification.endedAt)),
    );
    const credits = notification.credits as Record<string, unknown>;
    expect(credits.spent).toBeGreaterThan(0);
    // The run's ledger: what the simulator charged, nothing saved (a fresh cache), and the
    // estimate's certain part (the clips' number was known only at run time).
    // The estimate was worked out once the storyboard's length was known.
    expect(credits).toEqual({
      spent: simulator.stats().creditsCharged,
      saved: 0,
      estimated: simulator.stats().creditsCharged,
    });
    expect(typeof (notification.outputs as Record<string, unknown>).title).toBe("string");
    expect(await exists(path.join(runDir, "final.mp4"))).toBe(true);
    expect(await exists(path.join(runDir, "report.html"))).toBe(true);

    // resume takes --notify too, and says the run was resumed.
    const again = await receiver();
    const resumed = await runCli(["resume", "runs/ok", "--notify", again.url], {
      cwd: work.dir,
      env: serviceEnv(),
    });
    expect(resumed.code).toBe(0);
    expect(again.requests).toHaveLength(1);
    expect(bodyOf(again.requests[0] ?? { body: Buffer.from("{}") })).toMatchObject({
      status: "succeeded",
      resumed: true,
      runId: notification.runId,
      runDir,
      pipeline: { name: "storyboard", path: STORYBOARD },
    });
  });

  it("says in one line that a receiver that never answers was not notified, exits with the run's code once the limit passes, and tries a 404 receiver once", async () => {
    const silent = await receiver(() => "never");
    const missing = await receiver(() => ({ status: 404 }));
    const result = await runCli(
      ["run", STORYBOARD, "--input", "scenes=1", "--notify", silent.url, "--notify", missing.url],
      { cwd: work.dir, env: serviceEnv({ REELSMITH_NOTIFY_TIMEOUT: "1" }) },
    );
    // The process ended, with the run's own exit code.
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "warning: REELSMITH_NOTIFY_SECRET is not set: run notifications are sent unsigned",
    );
    const silentLine = result.stderr
      .split("\n")
      .filter((line) => line.includes(new URL(silent.url).origin));
    expect(silentLine).toEqual([
      `notification not delivered to ${new URL(silent.url).origin}/…: no answer within the 1 s limit (1 attempt); the run's result is unchanged`,
    ]);
    expect(result.stderr).toContain(
      `notification not delivered to ${new URL(missing.url).origin}/…: the receiver refused it (1 attempt, HTTP 404); the run's result is unchanged`,
    );
    await vi.waitFor(() => expect(silent.requests).toHaveLength(1));
    expect(missing.requests).toHaveLength(1);
    expect(missing.requests[0]?.headers["x-reelsmith-signature"]).toBeUndefined();
  });

  it("notifies a failed run with its error and exit code 1, and a pipeline that cannot start with exit code 2", async () => {
    const hook = await receiver();
    const doomed = path.join(work.dir, "doomed.yaml");
    await writeFile(
      doomed,
      [
        "name: doomed",
        "steps:",
        "  - id: clip",
        "    video:",
        "      model: reel-video-2-lite",
        '      prompt: "a storm at sea #fail"',
        "      seconds: 2",
        "      size: 854x480",
        "      output: clip.mp4",
        "outputs:",
        "  video: ${{ steps.clip.outputs.file }}",
        "",
      ].join("\n"),
    );
    const failed = await runCli(["run", doomed, "--notify", hook.url], {
      cwd: work.dir,
      env: serviceEnv(),
    });
    expect(failed.code).toBe(1);
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    const notification = bodyOf(hook.requests[0] ?? { body: Buffer.from("{}") });
    expect(notification).toMatchObject({
      status: "failed",
      exitCode: 1,
      pipeline: { name: "doomed" },
    });
    expect(String((notification.error as { message?: unknown }).message)).not.toBe("");
    expect(String(notification.text)).toMatch(/^reelsmith: doomed failed/);

    const invalid = path.join(work.dir, "invalid.yaml");
    await writeFile(invalid, "name: invalid\nsteps:\n  - id: a\n    frobnicate: {}\n");
    const refused = await runCli(["run", invalid, "--notify", hook.url], {
      cwd: work.dir,
      env: serviceEnv(),
    });
    expect(refused.code).toBe(2);
    await vi.waitFor(() => expect(hook.requests).toHaveLength(2));
    const notStarted = bodyOf(hook.requests[1] ?? { body: Buffer.from("{}") });
    expect(notStarted).toMatchObject({
      status: "failed",
      exitCode: 2,
      pipeline: { path: invalid },
    });
    expect(notStarted.runId).toBeUndefined();
  });

  it("notifies an interrupted run as interrupted with exit code 130", async () => {
    const slow = await startSimulator({ apiKey: API_KEY, timeScale: 0.5 });
    try {
      const hook = await receiver();
      const run = startCli(
        ["run", STORYBOARD, "--input", "scenes=4", "--max-videos", "1", "--notify", hook.url],
        {
          cwd: work.dir,
          env: cleanEnv({ REELSMITH_BASE_URL: slow.url, REELSMITH_API_KEY: API_KEY }),
        },
      );
      await run.waitFor((output) => output.stdout.includes("submitted"), 60_000);
      run.child.kill("SIGINT");
      const result = await run.done;
      expect(result.code).toBe(130);
      await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
      expect(bodyOf(hook.requests[0] ?? { body: Buffer.from("{}") })).toMatchObject({
        status: "interrupted",
        exitCode: 130,
      });
    } finally {
      await slow.close();
    }
  });

  it("refuses a --notify value that is not an http(s) URL before running anything", async () => {
    const result = await runCli(["run", STORYBOARD, "--notify", "mailto:ops@example.com"], {
      cwd: work.dir,
      env: serviceEnv(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the 1st --notify value is a mailto: URL");
    expect(result.stderr).not.toContain("ops@example.com");
  });
});
