import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { connect } from "@reelsmith/distributed";
import { decodeRecord } from "@reelsmith/runner/internal";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
// One PostgreSQL for this file: embedded, or REELSMITH_TEST_DATABASE_URL's server.
import { startTestDatabase, type TestDatabase } from "../../distributed/test/helpers/postgres.js";
import { startWebhookReceiver } from "../src/notify/__fixtures__/webhook-receiver.js";
import {
  type CliProcess,
  cleanEnv,
  EXAMPLES,
  runCli,
  startCli,
  tempDir,
} from "./helpers/cli-process.js";
import { encodeChain, ffmpegCommands } from "./helpers/ffmpeg-encodes.js";
import { NARRATED_PROFILE } from "./helpers/narrated-profile.js";

let database: TestDatabase;
let simulator: Simulator;
let cwd: string;
const workers: CliProcess[] = [];

/** 8 clips of `seconds` at 720x480: 4 credits a second at the reference price. */
const pipeline = (name: string, seconds = 1) => `name: ${name}
defaults:
  video: { model: reel-video-2-lite, seconds: ${seconds}, size: 720x480 }
steps:
  - id: clips
    for_each: [0, 1, 2, 3, 4, 5, 6, 7]
    video: { prompt: "${name} clip \${{ item }}" }
`;

function env(): Record<string, string> {
  return cleanEnv({
    REELSMITH_DATABASE_URL: database.url,
    REELSMITH_BASE_URL: simulator.url,
    REELSMITH_API_KEY: simulator.apiKey,
  });
}

async function startWorkerProcess(): Promise<CliProcess> {
  const worker = startCli(["worker", "--concurrency", "8"], { cwd, env: env() });
  await worker.waitFor((output) => output.stdout.includes(" ready: "), 60_000);
  workers.push(worker);
  return worker;
}

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  // Generous: a loaded 2-core machine runs PostgreSQL, workers and ffmpeg at once.
  const deadline = Date.now() + 180_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await startTestDatabase();
  // A 1 s clip takes ~2.5 s: a run is surely mid-way when it is cancelled.
  simulator = await startSimulator({ timeScale: 1 });
  cwd = (await tempDir("reelsmith-distributed-")).dir;
  await startWorkerProcess();
  await startWorkerProcess();
});

afterAll(async () => {
  for (const worker of workers) {
    worker.child.kill("SIGTERM");
    await worker.done;
  }
  await simulator?.close();
  await database?.stop();
});

// Each test runs worker processes, PostgreSQL and ffmpeg on a shared 2-core machine.
describe("reelsmith run --database", { timeout: 300_000 }, () => {
  it("two runs from two processes share one account budget: together they never spend more", async () => {
    await writeFile(path.join(cwd, "a.yaml"), pipeline("budget-a"));
    await writeFile(path.join(cwd, "b.yaml"), pipeline("budget-b"));
    const before = simulator.stats().creditsCharged;
    // 16 clips would cost 64 credits; the account may spend 40 (10 clips).
    const args = (file: string) => [
      "run",
      file,
      "--account",
      "team",
      "--account-budget",
      "40",
      "--max-videos",
      "4",
    ];
    const [a, b] = await Promise.all([
      runCli(args("a.yaml"), { cwd, env: env() }),
      runCli(args("b.yaml"), { cwd, env: env() }),
    ]);
    const codes = [a.code, b.code].sort();
    // At least one run was stopped by the budget (exit 3, status budget_reached), none crashed.
    expect(codes).toContain(3);
    for (const result of [a, b]) expect([0, 3]).toContain(result.code);
    expect(`${a.stderr}${a.stdout}${b.stderr}${b.stdout}`).toMatch(/budget/i);
    await waitUntil(async () => simulator.stats().jobsInFlight === 0, "jobs at the service to end");
    const spent = simulator.stats().creditsCharged - before;
    expect(spent).toBeLessThanOrEqual(40);
    expect(spent).toBeGreaterThanOrEqual(36);
    const status = await runCli(["status", "--json"], { cwd, env: env() });
    expect(status.code).toBe(0);
    const { runs, workers } = JSON.parse(status.stdout) as {
      runs: { credits: { spent: number } }[];
      workers: { live: boolean; heartbeatAt: string }[];
    };
    // The two workers of this file are live, each with a heartbeat.
    expect(workers).toHaveLength(2);
    for (const worker of workers) expect(worker.live).toBe(true);
    const total = runs.reduce((sum, run) => sum + run.credits.spent, 0);
    expect(total).toBe(spent);
  });

  it("cancel mid-run: nothing new is submitted, the run ends cancelled, status says so", async () => {
    // 4 s clips (~10 s each, 2 in flight): the 8 take far longer than a cancel needs to land,
    // however slowly the cancel process starts on a busy machine.
    await writeFile(path.join(cwd, "c.yaml"), pipeline("cancel-me", 4));
    const before = simulator.stats().videoJobs.created;
    const detached = await runCli(["run", "c.yaml", "--detach", "--max-videos", "2"], {
      cwd,
      env: env(),
    });
    expect(detached.code).toBe(0);
    const runId = detached.stdout.trim().split("\n").at(-1) ?? "";
    expect(runId).toMatch(/cancel-me/);
    // Follow it from another process, as a user would, to be notified when it ends.
    const hook = await startWebhookReceiver();
    const following = startCli(["resume", runId, "--notify", hook.url], { cwd, env: env() });
    // Following once it says so: a `resume` that reached the database only after the cancel
    // would resume the cancelled run instead (as it should), on a busy machine.
    await following.waitFor(
      (output) => /is still \w+; following it/.test(output.stdout + output.stderr),
      120_000,
    );
    await waitUntil(
      async () => simulator.stats().videoJobs.created - before >= 1,
      "the first submission",
    );
    const cancel = await runCli(["cancel", runId], { cwd, env: env() });
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toContain("cancelled");
    await waitUntil(async () => {
      const status = await runCli(["status", runId, "--json"], { cwd, env: env() });
      return (JSON.parse(status.stdout) as { endedAt?: string }).endedAt !== undefined;
    }, "the run to end");
    const status = await runCli(["status", runId], { cwd, env: env() });
    expect(status.stdout).toContain("cancelled");
    const created = simulator.stats().videoJobs.created - before;
    expect(created).toBeLessThan(8);
    // Nothing is submitted after the end.
    await waitUntil(async () => simulator.stats().jobsInFlight === 0, "jobs at the service to end");
    expect(simulator.stats().videoJobs.created - before).toBe(created);
    // The follower saw the run end cancelled: exit 130, as for an interrupted local run.
    const followed = await following.done;
    expect(followed.code).toBe(130);
    expect(followed.stdout + followed.stderr).toContain("cancelled");
    // Its notification says cancelled (elsewhere), not interrupted (here).
    expect(hook.requests).toHaveLength(1);
    expect(JSON.parse(hook.requests[0]?.body.toString("utf8") ?? "{}")).toMatchObject({
      status: "cancelled",
      exitCode: 130,
      runId,
      pipeline: { name: "cancel-me" },
    });
    await hook.close();
  });

  it("a run's directory is a run directory: run.json, the journal's mirror, events.ndjson and report.html naming the workers; reelsmith report works on it", async () => {
    await writeFile(path.join(cwd, "dir.yaml"), pipeline("dir-run"));
    const ran = await runCli(["run", "dir.yaml", "--max-videos", "4"], { cwd, env: env() });
    expect(ran.code).toBe(0);
    const runId = /run (\S+) queued/.exec(ran.stdout)?.[1] ?? "";
    expect(runId).toMatch(/dir-run/);
    const runDir = path.join(cwd, "runs", runId);
    for (const file of ["run.json", "journal.jsonl", "events.ndjson", "report.html"]) {
      expect(existsSync(path.join(runDir, file)), file).toBe(true);
    }
    // The run's own summary names the report its worker wrote, as a local run's does.
    expect(ran.stdout).toContain(`report: ${path.join("runs", runId, "report.html")}`);
    const runJson = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8"));
    expect(runJson).toMatchObject({ runId, name: "dir-run", status: "succeeded" });
    // The journal file is the database's journal, record for record, in order.
    const coordinator = await connect(database.url);
    const records = await coordinator.store
      .journalRecords(runId)
      .finally(() => coordinator.close());
    const lines = (await readFile(path.join(runDir, "journal.jsonl"), "utf8")).split("\n");
    expect(lines.filter((line) => line !== "").map((line) => decodeRecord(line))).toEqual(records);
    expect(records.filter((r) => r.type === "item.end")).toHaveLength(8);
    const events = (await readFile(path.join(runDir, "events.ndjson"), "utf8")).trim().split("\n");
    expect(events.map((line) => JSON.parse(line).type)).toContain("run.end");

    const report = await runCli(["report", path.join("runs", runId)], { cwd, env: env() });
    expect(report.code).toBe(0);
    expect(report.stdout).toContain("report.html");
    // Each clip's card names the worker that ran it: one of this file's two workers.
    const status = await runCli(["status", "--json"], { cwd, env: env() });
    const ids = (JSON.parse(status.stdout) as { workers: { executorId: string }[] }).workers.map(
      (worker) => worker.executorId,
    );
    const html = await readFile(path.join(runDir, "report.html"), "utf8");
    const named = ids.filter((id) => html.includes(`<dt>worker</dt><dd class="mono">${id}</dd>`));
    expect(named.length).toBeGreaterThan(0);
    const workerOf = records.filter((r) => r.type === "item.end").map((r) => r.worker);
    for (const worker of workerOf) expect(ids).toContain(worker);
    // Its state lives in the database: a local resume of the mirror is refused, with the way.
    const resumed = await runCli(["resume", path.join("runs", runId)], {
      cwd,
      env: cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: simulator.apiKey }),
    });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`reelsmith resume ${runId} --database`);
  });

  it("a run at a gate exits 4, status says where it waits, and approve --database --continue from another process takes it to its end", async () => {
    await writeFile(
      path.join(cwd, "gate.yaml"),
      `name: gate-db
steps:
  - id: draft
    chat: { model: reel-chat-1, prompt: "One line about a fox." }
  - id: review
    approve: { message: "Is the draft right?" }
  - id: clips
    needs: [review]
    for_each: [0, 1]
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, prompt: "gate clip \${{ item }}" }
outputs:
  by: \${{ steps.review.outputs.by }}
`,
    );
    const before = simulator.stats().videoJobs.created;
    const stopped = await runCli(["run", "gate.yaml"], { cwd, env: env() });
    expect(stopped.code).toBe(4);
    expect(simulator.stats().videoJobs.created).toBe(before);
    const runId = /run (\S+) queued/.exec(stopped.stdout)?.[1] ?? "";
    expect(runId).toMatch(/gate-db/);
    expect(stopped.stdout).toContain(`reelsmith approve ${runId}`);
    const waiting = await runCli(["status", runId], { cwd, env: env() });
    expect(waiting.stdout).toContain("waiting for approval at review: Is the draft right?");

    const approved = await runCli(
      ["approve", runId, "--by", "ana", "--note", "fine", "--continue"],
      { cwd, env: env() },
    );
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(/approved "review" of run \S+ by ana/);
    expect(approved.stdout).toMatch(/by\s+ana/);
    expect(simulator.stats().videoJobs.created - before).toBe(2);
    const status = await runCli(["status", runId], { cwd, env: env() });
    expect(status.stdout).toMatch(/approved at review by ana at \S+: fine/);
    expect(status.stdout).toContain("succeeded");
  });

  it("a profile in the openai dialect travels with the run: the workers speak it, send its params and finish", async () => {
    // The workers of this file were started for another service; they take their key from
    // their environment and everything else from the run.
    const profileText = [
      "service:",
      "  dialect: openai",
      "  lists_jobs: true",
      "  poll_interval: 100ms",
      "video_models:",
      "  sora-2:",
      "    seconds: [1, 4]",
      "    sizes: [640x360]",
      "    params: { seed: integer, style: [natural, vivid] }",
      "    price: { per_second: 1 }",
      "",
    ].join("\n");
    const openai = await startSimulator({
      timeScale: 0.01,
      apiKey: simulator.apiKey,
      profile: parse(profileText),
    });
    try {
      await writeFile(path.join(cwd, "openai.config.yaml"), profileText);
      await writeFile(
        path.join(cwd, "sora.yaml"),
        [
          "name: sora",
          "defaults:",
          "  video: { model: sora-2, seconds: 1, size: 640x360, params: { seed: 7, style: vivid } }",
          "steps:",
          "  - id: clips",
          "    for_each: [boat, kite]",
          `    video: { prompt: "a paper \${{ item }}" }`,
          "",
        ].join("\n"),
      );
      const result = await runCli(["run", "sora.yaml", "--config", "openai.config.yaml"], {
        cwd,
        env: { ...env(), REELSMITH_BASE_URL: openai.url },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout + result.stderr).toContain(
        "checked against openai.config.yaml; its dialect, poll interval and video models travel with the run",
      );
      const requests = openai.videoRequests();
      expect(requests).toHaveLength(2);
      for (const request of requests) {
        expect(request.status).toBe(200);
        expect(request.contentType).toBe("multipart/form-data");
        expect(request.fields).toMatchObject({ model: "sora-2", seed: "7", style: "vivid" });
      }
    } finally {
      await openai.close();
    }
  });

  it("the narrated example on two workers: both finals, each at most two lossy encodes from its clips, the passes between lossless as in a local run", async () => {
    // The models the narrated example asks for, served by a simulator of its own.
    const profileText = NARRATED_PROFILE;
    const narrated = await startSimulator({
      timeScale: 0.02,
      apiKey: simulator.apiKey,
      profile: parse(profileText),
    });
    try {
      await writeFile(path.join(cwd, "narrated.config.yaml"), profileText);
      const result = await runCli(
        [
          "run",
          path.join(EXAMPLES, "narrated", "pipeline.yaml"),
          "--config",
          "narrated.config.yaml",
          "--auto-approve",
        ],
        { cwd, env: { ...env(), REELSMITH_BASE_URL: narrated.url } },
      );
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const runId = /run (\S+) queued/.exec(result.stdout)?.[1] ?? "";
      const runDir = path.join(cwd, "runs", runId);
      const run = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8")) as {
        status: string;
        outputs: { wide: string; tall: string };
      };
      expect(run.status).toBe("succeeded");
      expect(narrated.stats().videoJobs.created).toBe(3);
      // ffmpeg's own command lines, as the workers' units told them (events.ndjson).
      const commands = await ffmpegCommands(runDir);
      for (const [final, passes] of [
        [run.outputs.wide, 4], // fit, join, mix, captions
        [run.outputs.tall, 5], // fit, join, mix, reframe, captions
      ] as const) {
        const chain = encodeChain(commands, path.resolve(runDir, final));
        expect(chain.from, final).toMatch(/clips[\\/]scene-\d\.mp4$/);
        expect(chain.passes, final).toBe(passes);
        expect(chain.lossy, final).toBeGreaterThanOrEqual(1);
        expect(chain.lossy, final).toBeLessThanOrEqual(2);
      }
    } finally {
      await narrated.close();
    }
    // A whole film on two workers: images, speech, clips and a dozen ffmpeg passes.
  }, 600_000);
});
