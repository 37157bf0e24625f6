import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, cleanEnv, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const KEY = "fal-e2e-key-0123456789";
const FIXTURE = fileURLToPath(new URL("./fixtures/fal/", import.meta.url));
const PROFILE = path.join(FIXTURE, "reelsmith.config.yaml");
const PIPELINE = path.join(FIXTURE, "pipeline.yaml");

/** `reelsmith serve --dialect fal` with the fal profile's models, and where it listens. */
async function serveFal(cwd: string, extra: string[] = []) {
  const process = startCli(
    [
      "serve",
      "--dialect",
      "fal",
      "--config",
      PROFILE,
      "--time-scale",
      "0.01",
      "--api-key",
      KEY,
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
    headers: { authorization: `Key ${KEY}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Stats;
}

const servers: CliProcess[] = [];
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  work = await tempDir("reelsmith-fal-");
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

describe("a fal profile against reelsmith serve --dialect fal (built CLI)", () => {
  it("validates and runs one clip from a fal endpoint; the ledger's credits are the simulator's charges", async () => {
    const served = await serveFal(work.dir);
    servers.push(served.process);
    expect(served.process.output.stdout).toContain("dialect fal");
    const env = cleanEnv({ REELSMITH_BASE_URL: served.url, FAL_KEY: KEY });

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
    expect(end?.totals?.credits).toBe(charged.creditsCharged);
    expect(charged.creditsCharged).toBe(35);
    expect(Object.keys(charged.requests)).toContain("POST /{endpoint}");
    const start = events.find((event) => event.type === "run.start") as
      | { runDir?: string }
      | undefined;
    const runDir = path.resolve(work.dir, start?.runDir ?? "");
    const clip = await readFile(path.join(runDir, "clip.mp4"));
    expect(clip.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("a submission whose answer was lost ends in request_unsettled with where to look, and is not sent again", async () => {
    const served = await serveFal(work.dir, ["--faults", "drop@videos.create:#1"]);
    servers.push(served.process);
    const env = cleanEnv({ REELSMITH_BASE_URL: served.url, FAL_KEY: KEY });
    const result = await runCli(["run", PIPELINE, "--config", PROFILE], { cwd: work.dir, env });
    expect(result.code).not.toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain("(request_unsettled)");
    expect(output).toContain("fal offers no idempotency key");
    expect(output).toContain("https://fal.ai/dashboard/requests");
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    const after = await stats(served.url);
    expect(Object.values(after.requests["POST /{endpoint}"] ?? {})).toEqual([1]);
  });

  it("killed while fal holds the submit answer, a resume stops with request_unsettled and sends nothing again", async () => {
    const served = await serveFal(work.dir, ["--faults", "stall@videos.create:#1:600000"]);
    servers.push(served.process);
    const env = cleanEnv({ REELSMITH_BASE_URL: served.url, FAL_KEY: KEY });
    const run = startCli(["run", PIPELINE, "--config", PROFILE], { cwd: work.dir, env });
    // The simulator made the request's job and holds its answer: the run is killed meanwhile.
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
    expect(resumed.code).not.toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain("(request_unsettled)");
    const after = await stats(served.url);
    expect(Object.values(after.requests["POST /{endpoint}"] ?? {}).reduce((a, b) => a + b, 0)).toBe(
      1,
    );
    expect(after.videoJobs.created).toBe(1);
  });
});
