import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { klingToken } from "@reelsmith/core/providers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, cleanEnv, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const ACCESS = "ak-e2e-0123456789";
const SECRET = "sk-e2e-abcdefghijklmnop";
const FIXTURE = fileURLToPath(new URL("./fixtures/kling/", import.meta.url));
const PROFILE = path.join(FIXTURE, "reelsmith.config.yaml");
const PIPELINE = path.join(FIXTURE, "pipeline.yaml");

/** `reelsmith serve --dialect kling` with the Kling profile's models, and where it listens. */
async function serveKling(cwd: string, extra: string[] = []) {
  const process = startCli(
    [
      "serve",
      "--dialect",
      "kling",
      "--config",
      PROFILE,
      "--time-scale",
      "0.01",
      "--api-key",
      `${ACCESS}:${SECRET}`,
      ...extra,
    ],
    { cwd },
  );
  await process.waitFor((output) => output.stdout.includes("Press Ctrl-C to stop."));
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(process.output.stdout)?.[1];
  if (!url) throw new Error(`no URL in:\n${process.output.stdout}`);
  return { process, url };
}

type Stats = {
  creditsCharged: number;
  videoJobs: { created: number };
  requests: Record<string, Record<string, number>>;
};

async function stats(url: string): Promise<Stats> {
  const response = await fetch(`${url}/_simulator/stats`, {
    headers: { authorization: `Bearer ${klingToken(ACCESS, SECRET)}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Stats;
}

const submitted = (stats: Stats) =>
  Object.values(stats.requests["POST /v1/videos/{action}"] ?? {}).reduce((a, b) => a + b, 0);

const servers: CliProcess[] = [];
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  work = await tempDir("reelsmith-kling-");
});
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.child.kill("SIGINT");
    await server.done;
  }
});
afterAll(async () => {
  await work?.remove();
});

describe("a Kling profile against reelsmith serve --dialect kling (built CLI)", () => {
  it("runs one clip with the key from two variables; the ledger's credits are the simulator's charges", async () => {
    const served = await serveKling(work.dir);
    servers.push(served.process);
    expect(served.process.output.stdout).toContain("dialect kling");
    const env = cleanEnv({
      REELSMITH_BASE_URL: served.url,
      KLING_ACCESS_KEY: ACCESS,
      KLING_SECRET_KEY: SECRET,
    });
    const validated = await runCli(["validate", PIPELINE, "--config", PROFILE], {
      cwd: work.dir,
      env,
    });
    expect(validated.code, validated.stderr).toBe(0);

    const result = await runCli(["run", PIPELINE, "--config", PROFILE, "--json"], {
      cwd: work.dir,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { type: string; totals?: { credits: number }; runDir?: string },
      );
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "run.end", status: "succeeded" });
    const charged = await stats(served.url);
    expect(charged.videoJobs.created).toBe(1);
    expect(charged.creditsCharged).toBe(35);
    expect(end?.totals?.credits).toBe(charged.creditsCharged);
    const start = events.find((event) => event.type === "run.start");
    const runDir = path.resolve(work.dir, start?.runDir ?? "");
    const clip = await readFile(path.join(runDir, "clip.mp4"));
    expect(clip.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it("with one of the two key variables unset, refuses before sending and names both", async () => {
    const served = await serveKling(work.dir);
    servers.push(served.process);
    const env = cleanEnv({ REELSMITH_BASE_URL: served.url, KLING_ACCESS_KEY: ACCESS });
    const result = await runCli(["run", PIPELINE, "--config", PROFILE], { cwd: work.dir, env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("no_api_key");
    expect(result.stderr).toContain("KLING_ACCESS_KEY and KLING_SECRET_KEY");
    expect(submitted(await stats(served.url))).toBe(0);
  });

  it("with no service configured, runs the Kling profile offline on the built-in simulator", async () => {
    const profile = (await readFile(PROFILE, "utf8")).replace(/^ {2}base_url: .*\n/m, "");
    const offline = path.join(work.dir, "offline.config.yaml");
    await writeFile(offline, profile);
    const result = await runCli(["run", PIPELINE, "--config", offline], {
      cwd: work.dir,
      env: cleanEnv({}),
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain("built-in simulator");
  });

  it("killed while Kling holds the submit answer, a resume finds the one task by external_task_id and makes the clip", async () => {
    const served = await serveKling(work.dir, ["--faults", "stall@videos.create:#1:600000"]);
    servers.push(served.process);
    const env = cleanEnv({
      REELSMITH_BASE_URL: served.url,
      KLING_ACCESS_KEY: ACCESS,
      KLING_SECRET_KEY: SECRET,
    });
    const run = startCli(["run", PIPELINE, "--config", PROFILE], { cwd: work.dir, env });
    // The simulator made the task and holds its answer: the run is killed meanwhile.
    await run.waitFor((output) => /directory (\S+)/.test(output.stdout));
    for (;;) {
      if ((await stats(served.url)).videoJobs.created >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    run.child.kill("SIGKILL");
    await run.done;
    const runDir = path.resolve(work.dir, /directory (\S+)/.exec(run.output.stdout)?.[1] ?? "");
    const journal = await readFile(path.join(runDir, "journal.jsonl"), "utf8");
    expect(journal).toContain("video.intent");

    const resumed = await runCli(["resume", runDir, "--config", PROFILE], { cwd: work.dir, env });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const after = await stats(served.url);
    expect(submitted(after)).toBe(1);
    expect(after.videoJobs.created).toBe(1);
    const clip = await readFile(path.join(runDir, "clip.mp4"));
    expect(clip.subarray(4, 8).toString("latin1")).toBe("ftyp");
  });
});
