import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver } from "../src/notify/__fixtures__/webhook-receiver.js";
import { cleanEnv, EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-approve-key-4c1d8e";
const APPROVE = path.join(EXAMPLES, "storyboard", "approve.yaml");
const SCENES = 2;

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.01 });
  work = await tempDir("reelsmith-approve-");
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

/** Video jobs the simulator made, from its own state. */
const jobs = () => simulator.stats().videoJobs.created;

const env = (extra: Record<string, string> = {}) =>
  cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY, ...extra });

/** `reelsmith <args>` in the work directory, against the test's simulator. */
const cli = (args: string[], extra: Record<string, string> = {}) =>
  runCli(args, { cwd: work.dir, env: env(extra) });

/**
 * Runs the gated storyboard into `runs/<name>`, with a story of its own: a resume keeps the
 * cache on, and the clips of another test's story would come from it instead of jobs.
 */
const runGated = (name: string, ...more: string[]) =>
  cli([
    "run",
    APPROVE,
    "--input",
    `scenes=${SCENES}`,
    "--input",
    `story=The kite ${name} climbs over the dunes. The kite ${name} meets a gull. The kite ${name} races the wind home.`,
    "--no-cache",
    "--run-dir",
    `runs/${name}`,
    ...more,
  ]);

function lastEvent(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split("\n");
  return JSON.parse(lines.at(-1) ?? "{}") as Record<string, unknown>;
}

describe("reelsmith approve / reject on a run stopped at a gate (built CLI)", () => {
  it("stops at the gate (exit 4, no clip submitted, report waiting, run.waiting notified), then approve and resume pay exactly one job per scene", async () => {
    const hook = await startWebhookReceiver();
    try {
      const before = jobs();
      const stopped = await runGated("first", "--notify", hook.url);
      expect(stopped.code).toBe(4);
      expect(jobs()).toBe(before);
      expect(stopped.stdout).toContain("waiting at review: Read the scenes");
      expect(stopped.stdout).toMatch(/after approval: \d+ credits more/);
      expect(stopped.stdout).toContain("reelsmith approve runs/first");
      expect(stopped.stdout).toContain("reelsmith resume runs/first");
      const report = await readFile(path.join(work.dir, "runs/first/report.html"), "utf8");
      expect(report).toContain('id="run-status">waiting<');
      expect(report).toContain("Read the scenes; approving pays for one clip per scene.");
      expect(hook.requests).toHaveLength(1);
      const notification = JSON.parse(hook.requests[0]?.body.toString("utf8") ?? "{}");
      expect(notification).toMatchObject({ event: "run.waiting", status: "waiting", exitCode: 4 });
    } finally {
      await hook.close();
    }

    // Nothing to decide at a step that is not a waiting gate: refused, exit 2.
    const wrong = await cli(["approve", "runs/first", "--step", "clips"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('waits at "review"');

    const before = jobs();
    const approved = await cli(["approve", "runs/first", "--note", "scenes read"], {
      REELSMITH_USER: "ana",
    });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(
      /approved "review" of runs\/first by ana at \S+ \(scenes read\)/,
    );
    expect(jobs()).toBe(before); // deciding sends nothing
    const resumed = await cli(["resume", "runs/first"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/approved_by\s+ana/);
    expect(jobs()).toBe(before + SCENES);
    // Decided and done: nothing waits any more.
    const again = await cli(["approve", "runs/first"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("is not waiting at a gate");
  });

  it("a gate prices with the cache in view: clips it holds cost 0 and say so, and approving then spends 0", async () => {
    const story =
      "A lantern drifts down the canal. A heron watches it pass. The lantern reaches the sea.";
    const gated = (dir: string) =>
      cli([
        "run",
        APPROVE,
        "--input",
        `scenes=${SCENES}`,
        "--input",
        `story=${story}`,
        "--run-dir",
        dir,
      ]);
    const first = await gated("runs/lantern-1");
    expect(first.code, first.stdout + first.stderr).toBe(4);
    expect(first.stdout).toMatch(/^after approval: \d+ credits more$/m);
    expect((await cli(["approve", "runs/lantern-1", "--continue"])).code).toBe(0);
    const charged = simulator.stats().creditsCharged;
    const made = jobs();
    // The same story again: its clips' requests are known at the gate and the cache holds them.
    const second = await gated("runs/lantern-2");
    expect(second.code, second.stdout + second.stderr).toBe(4);
    expect(second.stdout).toMatch(/^after approval: 0 credits more$/m);
    expect(second.stdout).toMatch(new RegExp(`\\(${SCENES} from the cache, free\\)$`, "m"));
    const approved = await cli(["approve", "runs/lantern-2", "--continue"]);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(jobs()).toBe(made);
    expect(simulator.stats().creditsCharged).toBe(charged);
  });

  it("approve --continue decides and resumes in one command (the decider from --by)", async () => {
    expect((await runGated("second")).code).toBe(4);
    const before = jobs();
    const done = await cli(["approve", "runs/second", "--by", "bo", "--continue", "--json"]);
    expect(done.code).toBe(0);
    expect(lastEvent(done.stdout)).toMatchObject({
      type: "run.end",
      status: "succeeded",
      outputs: { approved_by: "bo" },
    });
    expect(done.stderr).toContain('approved "review" of runs/second by bo');
    expect(jobs()).toBe(before + SCENES);
  });

  it("reject then resume ends the run rejected, with nothing behind the gate run", async () => {
    expect((await runGated("third")).code).toBe(4);
    const before = jobs();
    const rejected = await cli(["reject", "runs/third", "--by", "cy", "--note", "scene 2 is off"]);
    expect(rejected.code).toBe(0);
    const ended = await cli(["resume", "runs/third"]);
    expect(ended.code).toBe(1);
    expect(ended.stdout).toMatch(/rejected: "review" was rejected by cy at \S+: scene 2 is off/);
    expect(ended.stdout).toMatch(/total\s+rejected/);
    expect(jobs()).toBe(before);
    const run = JSON.parse(await readFile(path.join(work.dir, "runs/third/run.json"), "utf8"));
    expect(run.status).toBe("rejected");
  });

  it("--auto-approve and REELSMITH_AUTO_APPROVE=1 pass every gate, journaled as approved by auto", async () => {
    const before = jobs();
    const flagged = await runGated("fourth", "--auto-approve");
    expect(flagged.code).toBe(0);
    expect(flagged.stdout).toMatch(/approved_by\s+auto/);
    const journal = await readFile(path.join(work.dir, "runs/fourth/journal.jsonl"), "utf8");
    expect(journal).toMatch(/"name":"approval\.decision","data":\{"approved":true,"by":"auto"/);
    const viaEnv = await cli(
      ["run", APPROVE, "--input", `scenes=${SCENES}`, "--no-cache", "--run-dir", "runs/fifth"],
      { REELSMITH_AUTO_APPROVE: "1" },
    );
    expect(viaEnv.code).toBe(0);
    expect(jobs()).toBe(before + 2 * SCENES);
    const bad = await cli(["run", APPROVE, "--run-dir", "runs/sixth"], {
      REELSMITH_AUTO_APPROVE: "sometimes",
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("REELSMITH_AUTO_APPROVE must be 1 or 0");
  });
});
