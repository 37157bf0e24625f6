import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, cleanEnv, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const KEY = "r8_replicate-e2e-key-0123456789";
const FIXTURE = fileURLToPath(new URL("./fixtures/replicate/", import.meta.url));
const PROFILE = path.join(FIXTURE, "reelsmith.config.yaml");
const PIPELINE = path.join(FIXTURE, "pipeline.yaml");
const SUBMIT = "POST /v1/models/:owner/:name/predictions";

/** `reelsmith serve --dialect replicate` with the profile's models, and where it listens. */
async function serveReplicate(cwd: string, extra: string[] = []) {
  const process = startCli(
    [
      "serve",
      "--dialect",
      "replicate",
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
  videoJobs: { created: number; completed: number };
  requests: Record<string, Record<string, number>>;
};

async function stats(url: string): Promise<Stats> {
  const response = await fetch(`${url}/_simulator/stats`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Stats;
}

const sum = (counts: Record<string, number> | undefined) =>
  Object.values(counts ?? {}).reduce((a, b) => a + b, 0);

const servers: CliProcess[] = [];
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  work = await tempDir("reelsmith-replicate-");
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

describe("a Replicate profile against reelsmith serve --dialect replicate (built CLI)", () => {
  it("validates and runs one clip from a Replicate model; the ledger's credits are the simulator's charges", async () => {
    const served = await serveReplicate(work.dir);
    servers.push(served.process);
    expect(served.process.output.stdout).toContain("dialect replicate");
    const env = cleanEnv({ REELSMITH_BASE_URL: `${served.url}/v1`, REPLICATE_API_TOKEN: KEY });
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
    expect(sum(charged.requests[SUBMIT])).toBe(1);
    const start = events.find((event) => event.type === "run.start");
    const runDir = path.resolve(work.dir, start?.runDir ?? "");
    const clip = await readFile(path.join(runDir, "clip.mp4"));
    expect(clip.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("killed while Replicate holds the submit answer, a resume finds the one prediction in the list and makes the clip", async () => {
    const served = await serveReplicate(work.dir, ["--faults", "stall@videos.create:#1:600000"]);
    servers.push(served.process);
    const env = cleanEnv({ REELSMITH_BASE_URL: `${served.url}/v1`, REPLICATE_API_TOKEN: KEY });
    const run = startCli(["run", PIPELINE, "--config", PROFILE], { cwd: work.dir, env });
    // The simulator made the prediction and holds its answer: the run is killed meanwhile.
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
    expect(sum(after.requests[SUBMIT])).toBe(1);
    expect(sum(after.requests["GET /v1/predictions"])).toBeGreaterThanOrEqual(1);
    expect(after.videoJobs.created).toBe(1);
    expect(after.creditsCharged).toBe(35);
    const clip = await readFile(path.join(runDir, "clip.mp4"));
    expect(clip.subarray(4, 8).toString("latin1")).toBe("ftyp");
  });
});
