import { writeFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDatabase, type TestDatabase } from "../../distributed/test/helpers/postgres.js";
import { type CliProcess, cleanEnv, runCli, startCli, tempDir } from "./helpers/cli-process.js";

let database: TestDatabase;
let simulator: Simulator;
let cwd: string;
let worker: CliProcess;
let studio: CliProcess;
let url = "";
let cookie = "";

const env = () =>
  cleanEnv({
    REELSMITH_DATABASE_URL: database.url,
    REELSMITH_BASE_URL: simulator.url,
    REELSMITH_API_KEY: simulator.apiKey,
    REELSMITH_USER: "studio-reviewer",
  });
const get = (route: string) => fetch(`${url}${route}`, { headers: { cookie } });
const post = (route: string, body: object) =>
  fetch(`${url}${route}`, {
    method: "POST",
    headers: { cookie, origin: url, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** Waits for the studio's own answer to hold (its state, never a duration). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

beforeAll(async () => {
  database = await startTestDatabase();
  simulator = await startSimulator({ timeScale: 0.05 });
  cwd = (await tempDir("reelsmith-studio-db-")).dir;
  worker = startCli(["worker", "--concurrency", "4"], { cwd, env: env() });
  await worker.waitFor((output) => output.stdout.includes(" ready: "), 60_000);
  // REELSMITH_DATABASE_URL, as the other commands read it.
  studio = startCli(["studio"], { cwd, env: env() });
  await studio.waitFor((output) => /open: \S+/.test(output.stdout), 60_000);
  const login = /open: (\S+)/.exec(studio.output.stdout)?.[1] ?? "";
  url = new URL(login).origin;
  const answer = await fetch(login, { redirect: "manual" });
  cookie = (answer.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
});
afterAll(async () => {
  studio?.child.kill("SIGINT");
  await studio?.done;
  worker?.child.kill("SIGTERM");
  await worker?.done;
  await simulator?.close();
  await database?.stop();
});

describe("reelsmith studio --database (built CLI)", { timeout: 300_000 }, () => {
  it("lists a run made with --database, approves it through the database, and status shows the decision", async () => {
    expect(studio.output.stdout).toContain("and the runs of the database");
    await writeFile(
      path.join(cwd, "gate.yaml"),
      `name: studio-gate
steps:
  - id: draft
    chat: { model: reel-chat-1, prompt: "One line about a heron." }
  - id: review
    approve: { message: "Is the draft right?" }
  - id: clips
    needs: [review]
    for_each: [0, 1]
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, prompt: "heron clip \${{ item }}" }
`,
    );
    const stopped = await runCli(["run", "gate.yaml"], { cwd, env: env() });
    expect(stopped.code).toBe(4);
    const runId = /run (\S+) queued/.exec(stopped.stdout)?.[1] ?? "";
    expect(runId).toMatch(/studio-gate/);
    const runs = (await (await get("/api/runs")).json()) as {
      name: string;
      status: string;
      database?: boolean;
      workers?: { pid: number; live: boolean }[];
    }[];
    const listed = runs.find((run) => run.name === runId);
    expect(listed).toMatchObject({ status: "waiting", database: true });
    expect(listed?.workers?.some((entry) => entry.live)).toBe(true);

    const before = simulator.stats().videoJobs.created;
    const refused = await post(`/api/runs/${runId}/retake`, { step: "clips", index: "0" });
    expect(refused.status).toBe(409);
    const approve = await post(`/api/runs/${runId}/approve`, { step: "review", note: "fine" });
    expect(approve.status).toBe(202);
    await until(async () => {
      const now = (await (await get("/api/runs")).json()) as { name: string; status: string }[];
      return now.find((run) => run.name === runId)?.status === "succeeded";
    });
    expect(simulator.stats().videoJobs.created - before).toBe(2);
    const status = await runCli(["status", runId], { cwd, env: env() });
    expect(status.stdout).toMatch(/approved at review by studio-reviewer at \S+: fine/);
    expect(status.stdout).toContain("succeeded");
    const page = await (await get(`/runs/${runId}/`)).text();
    // Its page is drawn from the database: both clips made by the workers.
    expect(page.match(/<article class="card succeeded" data-step="clips"/g)).toHaveLength(2);
    expect(page).not.toContain(simulator.apiKey);
    expect(page).not.toContain(database.url);
  });
});
