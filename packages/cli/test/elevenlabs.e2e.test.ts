import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, cleanEnv, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const KEY = "elevenlabs-e2e-key-0123456789";
const FIXTURE = fileURLToPath(new URL("./fixtures/elevenlabs/", import.meta.url));
const PROFILE = path.join(FIXTURE, "reelsmith.config.yaml");
const PIPELINE = path.join(FIXTURE, "pipeline.yaml");
const INPUT = "A storm, over the harbour! The lamps went out, one by one.";

/** `reelsmith serve --dialect elevenlabs` with the profile's models, and where it listens. */
async function serveElevenlabs(cwd: string, extra: string[] = []) {
  const process = startCli(
    ["serve", "--dialect", "elevenlabs", "--config", PROFILE, "--api-key", KEY, ...extra],
    { cwd },
  );
  await process.waitFor((output) => output.stdout.includes("Press Ctrl-C to stop."));
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(process.output.stdout)?.[1];
  if (!url) throw new Error(`no URL in:\n${process.output.stdout}`);
  return { process, url };
}

type Stats = {
  creditsCharged: number;
  speech: { requests: number; characters: number };
  transcriptions: { requests: number };
};

async function stats(url: string): Promise<Stats> {
  const response = await fetch(`${url}/_simulator/stats`, { headers: { "xi-api-key": KEY } });
  expect(response.status).toBe(200);
  return (await response.json()) as Stats;
}

const servers: CliProcess[] = [];
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  work = await tempDir("reelsmith-elevenlabs-");
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

describe("a speech-only ElevenLabs profile against reelsmith serve --dialect elevenlabs (built CLI)", () => {
  it("plans the narration at its characters, runs it with word timings from the alignment (no transcription), and the ledger's credits are the simulator's charge", async () => {
    const served = await serveElevenlabs(work.dir);
    servers.push(served.process);
    const env = cleanEnv({ REELSMITH_BASE_URL: served.url, ELEVENLABS_API_KEY: KEY });

    const planned = await runCli(["plan", PIPELINE, "--config", PROFILE, "--json"], {
      cwd: work.dir,
      env,
    });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as {
      limits: {
        requests: Record<string, number>;
        estimate: { credits: number; complete: boolean };
      };
    };
    // Known from the text: a credit a character, one speech request and no transcription.
    expect(plan.limits.estimate).toMatchObject({ credits: INPUT.length, complete: true });
    expect(plan.limits.requests).toEqual({ speech: 1 });

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
          JSON.parse(line) as {
            type: string;
            status?: string;
            totals: { credits: number };
            runDir?: string;
          },
      );
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "run.end", status: "succeeded" });
    const charged = await stats(served.url);
    expect(charged.speech).toMatchObject({ requests: 1, characters: INPUT.length });
    expect(charged.transcriptions.requests).toBe(0);
    expect(end?.totals.credits).toBe(charged.creditsCharged);
    expect(charged.creditsCharged).toBe(INPUT.length);

    const start = events.find((event) => event.type === "run.start");
    const runDir = path.resolve(work.dir, start?.runDir ?? "");
    const run = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8")) as {
      totals: { credits: number };
      outputs: {
        file: string;
        duration: number;
        words: { word: string; start: number; end: number }[];
        words_from: string;
      };
    };
    expect(run.totals.credits).toBe(charged.creditsCharged);
    expect(run.outputs.words_from).toBe("speech");
    expect(run.outputs.words.map((word) => word.word).join(" ")).toBe(INPUT);
    expect(run.outputs.words.at(-1)?.end ?? 0).toBeLessThanOrEqual(run.outputs.duration + 0.05);
    const audio = await readFile(run.outputs.file);
    expect(audio.length).toBeGreaterThan(1000);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("refuses a voice the profile does not list before anything is sent", async () => {
    const served = await serveElevenlabs(work.dir);
    servers.push(served.process);
    const env = cleanEnv({ REELSMITH_BASE_URL: served.url, ELEVENLABS_API_KEY: KEY });
    const pipeline = path.join(work.dir, "wrong-voice.yaml");
    const text = (await readFile(PIPELINE, "utf8")).replace("JBFqnCBsd6RMkjVDRZzb", "ava");
    await writeFile(pipeline, text);
    const result = await runCli(["run", pipeline, "--config", PROFILE], { cwd: work.dir, env });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/voice/);
    expect(result.stdout + result.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect((await stats(served.url)).speech.requests).toBe(0);
  });

  it("a narration whose answer was lost is not sent again: the run fails, a resume stops with request_unsettled", async () => {
    const served = await serveElevenlabs(work.dir, ["--faults", "drop@audio.speech:#1"]);
    servers.push(served.process);
    const env = cleanEnv({ REELSMITH_BASE_URL: served.url, ELEVENLABS_API_KEY: KEY });
    const result = await runCli(["run", PIPELINE, "--config", PROFILE], { cwd: work.dir, env });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    const runDir = path.resolve(work.dir, /directory (\S+)/.exec(result.stdout)?.[1] ?? "");
    const resumed = await runCli(["resume", runDir, "--config", PROFILE], { cwd: work.dir, env });
    expect(resumed.code).not.toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain("(request_unsettled)");
    expect(resumed.stdout + resumed.stderr).toContain("The provider takes no idempotency key");
    // Made (and charged) once by the server, its answer lost: never sent a second time.
    expect((await stats(served.url)).speech.requests).toBe(1);
  });
});
