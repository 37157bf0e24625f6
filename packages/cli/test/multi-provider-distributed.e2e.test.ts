import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { connect } from "@reelsmith/distributed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One PostgreSQL for this file: embedded, or REELSMITH_TEST_DATABASE_URL's server.
import { startTestDatabase, type TestDatabase } from "../../distributed/test/helpers/postgres.js";
import {
  type CliProcess,
  cleanEnv,
  jsonEvents,
  runCli,
  startCli,
  tempDir,
} from "./helpers/cli-process.js";
import {
  type Dialect,
  FAL_USD,
  multiProviderServers,
  NARRATION,
  PIPELINE,
  PROFILE,
  paidRequests,
  type Served,
} from "./helpers/multi-provider.js";

const { keys: KEYS, serve, stats } = multiProviderServers("dmulti", "0.05");
const paid = paidRequests;

let database: TestDatabase;
let work: Awaited<ReturnType<typeof tempDir>>;
let servers: Served[] = [];
let config: string;
const workers: CliProcess[] = [];
const at = (dialect: Dialect) => servers.find((server) => server.dialect === dialect) as Served;

/** The environment of the `run` process and of the workers: every account's key of its own. */
const env = (extra: Record<string, string> = {}) =>
  cleanEnv({
    REELSMITH_DATABASE_URL: database.url,
    // No REELSMITH_API_KEY: workers read the service's key from the variable the profile
    // names (service.api_key_env), as every account's; the run stores the names only.
    MULTI_REFERENCE_KEY: KEYS.reference,
    MULTI_FAL_KEY: KEYS.fal,
    MULTI_ELEVENLABS_KEY: KEYS.elevenlabs,
    ...extra,
  });

async function startWorkerProcess(workerEnv: Record<string, string>): Promise<CliProcess> {
  const worker = startCli(["worker", "--concurrency", "8"], { cwd: work.dir, env: workerEnv });
  await worker.waitFor((output) => output.stdout.includes(" ready: "), 60_000);
  workers.push(worker);
  return worker;
}

async function stopWorkers(): Promise<void> {
  for (const worker of workers.splice(0)) {
    worker.child.kill("SIGTERM");
    await worker.done;
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await startTestDatabase();
  work = await tempDir("reelsmith-dmulti-");
  servers = await Promise.all(
    (["reference", "fal", "elevenlabs"] as const).map((dialect) => serve(dialect, work.dir)),
  );
  // The run's profile: the fixture at the simulators' addresses.
  let text = await readFile(PROFILE, "utf8");
  for (const server of servers)
    text = text.replace(`https://${server.dialect}.invalid`, server.url);
  config = path.join(work.dir, "reelsmith.config.yaml");
  await writeFile(config, text);
  await startWorkerProcess(env());
  await startWorkerProcess(env());
}, 180_000);

afterAll(async () => {
  await stopWorkers();
  for (const server of servers) {
    server.process.child.kill("SIGINT");
    await server.process.done;
  }
  await database?.stop();
  await work?.remove();
});

// Worker processes, PostgreSQL, three simulators and ffmpeg on a shared 2-core machine.
describe("one profile, three providers, one run on two workers (--database)", {
  timeout: 300_000,
}, () => {
  it("refuses a credit budget over dollars before the run is stored, then routes each request to its provider from both workers", async () => {
    const refused = await runCli(["run", PIPELINE, "--config", config, "--max-credits", "500"], {
      cwd: work.dir,
      env: env(),
    });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      "the budget of 500 credits cannot hold `fal-ai/kling-video/v2.1/standard/text-to-video`, `fal-ai/flux/dev`, `fal-ai/kokoro/american-english` (providers.fal) priced in usd",
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // An account budget in credits is held to the same rule.
    const overAccount = await runCli(
      ["run", PIPELINE, "--config", config, "--account", "dmulti", "--account-budget", "500"],
      { cwd: work.dir, env: env() },
    );
    expect(overAccount.code, overAccount.stderr).toBe(2);
    expect(overAccount.stderr).toContain(
      "cannot hold `fal-ai/kling-video/v2.1/standard/text-to-video`, `fal-ai/flux/dev`, `fal-ai/kokoro/american-english` (providers.fal) priced in usd",
    );
    for (const server of servers) expect(paid(await stats(server)), server.dialect).toBe(0);

    const result = await runCli(["run", PIPELINE, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    const events = jsonEvents<{
      type: string;
      status?: string;
      runDir?: string;
      totals?: { otherUnits?: Record<string, number> };
    }>(result.stdout);
    expect(events.at(-1)).toMatchObject({ type: "run.end", status: "succeeded" });
    // fal's dollars (no rate) apart from the credits, exactly, as on one machine.
    expect(events.at(-1)?.totals?.otherUnits).toEqual({ usd: FAL_USD });
    for (const key of Object.values(KEYS)) expect(result.stdout + result.stderr).not.toContain(key);
    // The keys never reach the database: the run stores the names of their variables only.
    const runId = path.basename(events.find((event) => event.type === "run.start")?.runDir ?? "");
    const coordinator = await connect(database.url);
    const row = await coordinator.store.getRun(runId).finally(() => coordinator.close());
    expect(row?.options.models).toMatchObject({
      "fal-ai/kling-video/v2.1/standard/text-to-video": "fal",
      eleven_multilingual_v2: "voice",
    });
    const options = JSON.stringify(row?.options);
    expect(options).toContain("MULTI_FAL_KEY");
    expect(row?.options.apiKeyEnv).toEqual(["MULTI_REFERENCE_KEY"]);
    for (const key of Object.values(KEYS)) expect(options).not.toContain(key);
    // status on the database says the dollars beside the credits, in the closing table's words.
    const words = `and ${FAL_USD} usd spent, not in credits (a provider's unit with no credits_per_unit)`;
    const status = await runCli(["status", runId], { cwd: work.dir, env: env() });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(words);
    expect((await runCli(["status"], { cwd: work.dir, env: env() })).stdout).toContain(words);
    const detail = JSON.parse(
      (await runCli(["status", runId, "--json"], { cwd: work.dir, env: env() })).stdout,
    ) as { otherUnits?: Record<string, number> };
    expect(detail.otherUnits).toEqual({ usd: FAL_USD });

    await waitUntil(
      async () => (await stats(at("fal"))).requestsInFlight === 0,
      "fal's requests to end",
    );
    const [reference, fal, voice] = await Promise.all([
      stats(at("reference")),
      stats(at("fal")),
      stats(at("elevenlabs")),
    ]);
    // Chat and the keyframe at the reference service, and nothing else there.
    expect(reference.chatCompletions).toBe(1);
    expect(reference.images.requests).toBe(1);
    expect(reference.videoJobs.created).toBe(0);
    expect(reference.speech.requests).toBe(0);
    // Both clips, the poster and the tagline at fal, one request at a time across both workers:
    // the account's max_concurrent_jobs holds its images and speech with its clips.
    expect(fal.videoJobs.created).toBe(2);
    expect(fal.images.requests).toBe(1);
    expect(fal.speech.requests).toBe(1);
    expect(fal.chatCompletions).toBe(0);
    expect(fal.peakConcurrentJobs).toBe(1);
    expect(fal.peakConcurrentRequests).toBe(1);
    // The narration at ElevenLabs, timed by its alignment (no transcription anywhere).
    expect(voice.speech).toMatchObject({ requests: 1, characters: NARRATION.length });
    expect(voice.videoJobs.created + voice.chatCompletions + voice.images.requests).toBe(0);
    expect(reference.transcriptions.requests + voice.transcriptions.requests).toBe(0);

    const start = events.find((event) => event.type === "run.start");
    const run = JSON.parse(
      await readFile(path.join(path.resolve(work.dir, start?.runDir ?? ""), "run.json"), "utf8"),
    ) as {
      outputs: { keeper: string; clips: unknown[]; words_from: string; narration: string };
    };
    expect(typeof run.outputs.keeper).toBe("string");
    expect(run.outputs.clips).toHaveLength(2);
    expect(run.outputs.words_from).toBe("speech");
    expect((await readFile(run.outputs.narration)).length).toBeGreaterThan(1000);
  });

  it("a worker without an account's key fails the units of that account, naming the variable, and sends them nowhere", async () => {
    await stopWorkers();
    const { MULTI_FAL_KEY: _unset, ...withoutFal } = env();
    await startWorkerProcess(withoutFal);
    const before = await stats(at("fal"));
    const result = await runCli(["run", PIPELINE, "--config", config, "--no-cache"], {
      cwd: work.dir,
      env: env(),
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      'this worker has no key for the provider account "fal"',
    );
    expect(result.stdout + result.stderr).toContain("set MULTI_FAL_KEY");
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
    expect(paid(await stats(at("fal")))).toBe(paid(before));
  });
});
