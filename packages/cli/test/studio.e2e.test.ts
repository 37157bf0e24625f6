import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CliProcess,
  cleanEnv,
  EXAMPLES,
  runCli,
  startCli,
  tempDir,
} from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-studio-key-7a2f9c";
const APPROVE = path.join(EXAMPLES, "storyboard", "approve.yaml");

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
let studio: CliProcess;
let url = "";
let cookie = "";

const env = () =>
  cleanEnv({
    REELSMITH_BASE_URL: simulator.url,
    REELSMITH_API_KEY: API_KEY,
    REELSMITH_USER: "studio-reviewer",
  });
const cli = (args: string[]) => runCli(args, { cwd: work.dir, env: env() });
const runGated = (name: string) =>
  cli([
    "run",
    APPROVE,
    "--input",
    "scenes=2",
    "--input",
    `story=The lantern ${name} drifts down the canal. The lantern ${name} passes a bridge.`,
    "--no-cache",
    "--run-dir",
    `runs/${name}`,
  ]);
const get = (route: string) => fetch(`${url}${route}`, { headers: { cookie } });

/** Waits for the studio's own answer to hold (its state, never a duration). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.01 });
  work = await tempDir("reelsmith-studio-");
  studio = startCli(["studio"], { cwd: work.dir, env: env() });
  await studio.waitFor((output) => /open: \S+/.test(output.stdout));
  const login = /open: (\S+)/.exec(studio.output.stdout)?.[1] ?? "";
  url = new URL(login).origin;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const answer = await fetch(login, { redirect: "manual" });
  expect(answer.status).toBe(303);
  cookie = (answer.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
});
afterAll(async () => {
  studio?.child.kill("SIGINT");
  await studio?.done;
  await simulator?.close();
  await work?.remove();
});

describe("reelsmith studio (built CLI) over runs made from the terminal", () => {
  it("prints only addresses that work: each one opened without a cookie lets the reader in", async () => {
    const printed = (studio.output.stdout + studio.output.stderr).match(/https?:\/\/\S+/g) ?? [];
    expect(printed).toHaveLength(1);
    for (const address of printed) {
      const answer = await fetch(address, { redirect: "manual" });
      expect(answer.status, address).toBe(303);
      expect(answer.headers.get("set-cookie")).toMatch(/HttpOnly/);
    }
  });

  it("approves from the studio: the run goes on, and the CLI's report shows the decision", async () => {
    expect((await runGated("a")).code).toBe(4);
    const jobs = simulator.stats().videoJobs.created;
    const approve = await fetch(`${url}/api/runs/a/approve`, {
      method: "POST",
      headers: { cookie, origin: url, "content-type": "application/json" },
      body: JSON.stringify({ step: "review", note: "read in the studio" }),
    });
    expect(approve.status).toBe(202);
    await until(async () => {
      const runs = (await (await get("/api/runs")).json()) as { name: string; status: string }[];
      return runs.find((run) => run.name === "a")?.status === "succeeded";
    });
    expect(simulator.stats().videoJobs.created - jobs).toBe(2);
    expect((await cli(["report", "runs/a"])).code).toBe(0);
    const report = await readFile(path.join(work.dir, "runs", "a", "report.html"), "utf8");
    expect(report).toContain('<dd class="decided-by">studio-reviewer</dd>');
    expect(report).toContain('<dd class="note-text">read in the studio</dd>');
  });

  it("shows a decision made from the terminal, and offers to resume the run", async () => {
    expect((await runGated("b")).code).toBe(4);
    expect((await cli(["reject", "runs/b", "--note", "scene 2 is off"])).code).toBe(0);
    const page = await (await get("/runs/b/")).text();
    expect(page).toMatch(/<article class="gate rejected" data-step="review">/);
    expect(page).toContain('<dd class="note-text">scene 2 is off</dd>');
    expect(page).toContain('data-action="resume"');
    expect(page).not.toContain(API_KEY);
    expect(studio.output.stdout + studio.output.stderr).not.toContain(API_KEY);
  });
});
