import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, jsonEvents, runCli, tempDir } from "./helpers/cli-process.js";
import {
  type Dialect,
  FAL_MODELS,
  FAL_USD,
  multiProviderServers,
  NARRATION,
  PIPELINE,
  PROFILE,
  paidRequests,
  type Served,
} from "./helpers/multi-provider.js";

const { keys: KEYS, serve, stats } = multiProviderServers("multi", "0.01");
const served = paidRequests;

const env = () =>
  cleanEnv({
    MULTI_REFERENCE_KEY: KEYS.reference,
    MULTI_FAL_KEY: KEYS.fal,
    MULTI_ELEVENLABS_KEY: KEYS.elevenlabs,
  });

let work: Awaited<ReturnType<typeof tempDir>>;
let servers: Served[] = [];
let config: string;
const at = (dialect: Dialect) => servers.find((server) => server.dialect === dialect) as Served;

beforeAll(async () => {
  work = await tempDir("reelsmith-multi-");
  servers = await Promise.all(
    (["reference", "fal", "elevenlabs"] as const).map((dialect) => serve(dialect, work.dir)),
  );
  // The run's profile: the fixture at the simulators' addresses.
  let text = await readFile(PROFILE, "utf8");
  for (const server of servers)
    text = text.replace(`https://${server.dialect}.invalid`, server.url);
  config = path.join(work.dir, "reelsmith.config.yaml");
  await writeFile(config, text);
});
afterAll(async () => {
  for (const server of servers) {
    server.process.child.kill("SIGINT");
    await server.process.done;
  }
  await work?.remove();
});

describe("one profile, three providers, one run (built CLI)", () => {
  it("plans a total per unit, refuses a credit budget over dollars before anything is sent, then runs each request at its own provider", async () => {
    const planned = await runCli(["plan", PIPELINE, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as {
      limits: {
        requests: Record<string, number>;
        estimate: {
          credits: number;
          complete: boolean;
          otherUnits?: Record<string, { amount: number; models: string[]; providers: string[] }>;
          steps: Record<string, { unit?: string; credits?: number }>;
        };
      };
    };
    const { estimate } = plan.limits;
    // A keyframe at 4 credits, the narration at a credit a character; fal's requests in dollars apart.
    expect(estimate.credits).toBe(4 + NARRATION.length);
    expect(estimate.otherUnits?.usd?.amount).toBe(FAL_USD);
    // Each priced exactly in dollars: the poster's 5 cents and the tagline's 30 stay cents.
    expect(estimate.steps.poster).toMatchObject({ unit: "usd", credits: 0.05 });
    expect(estimate.steps.tagline).toMatchObject({ unit: "usd", credits: 0.3 });
    expect([...(estimate.otherUnits?.usd?.models ?? [])].sort()).toEqual([...FAL_MODELS].sort());
    expect(estimate.otherUnits?.usd?.providers).toEqual(["fal"]);
    expect(estimate.steps.clips?.unit).toBe("usd");
    // The voice's answer times its words: no transcription is planned, though one is offered.
    expect(plan.limits.requests).toEqual({ chatRequests: 1, images: 2, videoJobs: 2, speech: 2 });
    const shown = await runCli(["plan", PIPELINE, "--config", config], {
      cwd: work.dir,
      env: env(),
    });
    expect(shown.stdout).toContain(`expected cost: ${4 + NARRATION.length} credits`);
    expect(shown.stdout).toContain(
      "and 0.85 usd (fal-ai/kling-video/v2.1/standard/text-to-video, fal-ai/flux/dev, fal-ai/kokoro/american-english, providers.fal), not in credits",
    );

    const refused = await runCli(["run", PIPELINE, "--config", config, "--max-credits", "500"], {
      cwd: work.dir,
      env: env(),
    });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      "the budget of 500 credits cannot hold `fal-ai/kling-video/v2.1/standard/text-to-video`, `fal-ai/flux/dev`, `fal-ai/kokoro/american-english` (providers.fal) priced in usd",
    );
    expect(refused.stderr).toContain("credits_per_unit under providers.fal");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    for (const server of servers) expect(served(await stats(server)), server.dialect).toBe(0);

    const result = await runCli(["run", PIPELINE, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    const events = jsonEvents<{
      type: string;
      status?: string;
      runDir?: string;
      totals?: { credits: number; otherUnits?: Record<string, number> };
    }>(result.stdout);
    expect(events.at(-1)).toMatchObject({ type: "run.end", status: "succeeded" });
    // The plan said what the run spent in credits, and the dollars apart, never added.
    expect(events.at(-1)?.totals?.credits).toBe(estimate.credits);
    expect(events.at(-1)?.totals?.otherUnits).toEqual({ usd: FAL_USD });
    for (const key of Object.values(KEYS)) expect(result.stdout + result.stderr).not.toContain(key);

    const [reference, fal, voice] = await Promise.all([
      stats(at("reference")),
      stats(at("fal")),
      stats(at("elevenlabs")),
    ]);
    // The count the refusal was checked with sees every paid request.
    for (const state of [reference, fal, voice]) expect(served(state)).toBeGreaterThan(0);
    // Chat and the keyframe at the reference service, and nothing else there.
    expect(reference.chatCompletions).toBe(1);
    expect(reference.images.requests).toBe(1);
    expect(reference.videoJobs.created).toBe(0);
    expect(reference.speech.requests).toBe(0);
    // Both clips, the poster and the tagline at fal, one request at a time: the account's
    // max_concurrent_jobs holds its images and speech with its clips.
    expect(fal.videoJobs.created).toBe(2);
    expect(fal.images.requests).toBe(1);
    expect(fal.speech.requests).toBe(1);
    expect(fal.chatCompletions).toBe(0);
    // What fal's dialect billed, in dollars, is what the plan and the run said.
    expect(fal.creditsCharged).toBe(FAL_USD);
    expect(fal.requestsInFlight).toBe(0);
    expect(fal.peakConcurrentJobs).toBe(1);
    expect(fal.peakConcurrentRequests).toBe(1);
    // The narration at ElevenLabs, timed by its alignment (no transcription anywhere).
    expect(voice.speech).toMatchObject({ requests: 1, characters: NARRATION.length });
    expect(voice.videoJobs.created + voice.chatCompletions + voice.images.requests).toBe(0);
    expect(reference.transcriptions.requests + voice.transcriptions.requests).toBe(0);

    // The same run again is served by the cache, each result keyed by its own account.
    const again = await runCli(["run", PIPELINE, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(again.code, again.stderr).toBe(0);
    const paidAgain = await Promise.all(servers.map((server) => stats(server)));
    expect(paidAgain.map(served)).toEqual([reference, fal, voice].map(served));
    // Its estimate knew it, and a plan now does: each request is looked for under its own
    // account's service, as its unit keyed it (fal's dollars too, not only the credits).
    const noCost = {
      credits: 0,
      otherUnits: { usd: { amount: 0 } },
      steps: {
        narration: { cached: 1, credits: 0 },
        clips: { cached: 2, unit: "usd", credits: 0 },
        poster: { cached: 1, unit: "usd", credits: 0 },
      },
    };
    const againEstimate = jsonEvents<{ type: string; estimate?: unknown }>(again.stdout).find(
      (event) => event.type === "run.estimate",
    );
    expect(againEstimate?.estimate).toMatchObject(noCost);
    const replanned = await runCli(["plan", PIPELINE, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(replanned.code, replanned.stderr).toBe(0);
    const { limits } = JSON.parse(replanned.stdout);
    expect(limits.estimate).toMatchObject(noCost);
    expect(limits.requests).toEqual({ chatRequests: 0, images: 0, videoJobs: 0, speech: 0 });

    const start = events.find((event) => event.type === "run.start");
    const run = JSON.parse(
      await readFile(path.join(path.resolve(work.dir, start?.runDir ?? ""), "run.json"), "utf8"),
    ) as {
      outputs: {
        keeper: string;
        clips: unknown[];
        words_from: string;
        narration: string;
        poster: string;
        tagline: string;
      };
      totals: { credits: number; otherUnits?: Record<string, number> };
    };
    expect(run.totals).toMatchObject({ credits: estimate.credits, otherUnits: { usd: FAL_USD } });
    expect(typeof run.outputs.keeper).toBe("string");
    expect((await readFile(run.outputs.poster)).subarray(1, 4).toString("latin1")).toBe("PNG");
    expect((await readFile(run.outputs.tagline)).length).toBeGreaterThan(1000);
    expect(run.outputs.clips).toHaveLength(2);
    expect(run.outputs.words_from).toBe("speech");
    expect((await readFile(run.outputs.narration)).length).toBeGreaterThan(1000);

    // The closing table says the dollars apart from the credits.
    const shownRun = await runCli(["run", PIPELINE, "--config", config, "--no-cache"], {
      cwd: work.dir,
      env: env(),
    });
    expect(shownRun.code, shownRun.stderr).toBe(0);
    expect(shownRun.stdout).toContain(
      "and 0.85 usd spent, not in credits (a provider's unit with no credits_per_unit)",
    );
  });

  it("refuses a provider's missing key, naming the variable to set, before anything is sent", async () => {
    const before = await Promise.all(servers.map((server) => stats(server)));
    const { MULTI_FAL_KEY: _unset, ...withoutFal } = env();
    const result = await runCli(["run", PIPELINE, "--config", config], {
      cwd: work.dir,
      env: withoutFal,
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("no API key for the provider `fal`");
    expect(result.stderr).toContain("set MULTI_FAL_KEY (providers.fal.api_key_env)");
    const after = await Promise.all(servers.map((server) => stats(server)));
    expect(after.map(served)).toEqual(before.map(served));
  });

  it("refuses a model naming a provider the profile lacks, at its line and column", async () => {
    const bad = path.join(work.dir, "bad.config.yaml");
    const text = (await readFile(config, "utf8")).replace("provider: voice", "provider: voices");
    await writeFile(bad, text);
    const line = text.split("\n").findIndex((row) => row.includes("provider: voices")) + 1;
    const result = await runCli(["validate", PIPELINE, "--config", bad], {
      cwd: work.dir,
      env: env(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`bad.config.yaml:${line}:15`);
    expect(result.stderr).toContain(
      "no provider `voices`; the profile's providers are fal or voice (add it under `providers:`, or remove `provider:` to use `service`)",
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses a model routed to an account that does not make its kind, at its provider line, before anything is sent", async () => {
    const before = await Promise.all(servers.map((server) => stats(server)));
    const bad = path.join(work.dir, "unserved.config.yaml");
    // The clips' model routed to the ElevenLabs account, which makes speech, not video.
    const text = (await readFile(config, "utf8")).replace(
      "provider: fal\n    seconds",
      "provider: voice\n    seconds",
    );
    await writeFile(bad, text);
    const line = text.split("\n").findIndex((row) => row.includes("provider: voice")) + 1;
    for (const command of ["validate", "plan", "run"]) {
      const result = await runCli([command, PIPELINE, "--config", bad], {
        cwd: work.dir,
        env: env(),
      });
      expect(result.code, command).toBe(2);
      expect(result.stderr, command).toContain(`unserved.config.yaml:${line}:15`);
      expect(result.stderr, command).toContain(
        "`video_models.fal-ai/kling-video/v2.1/standard/text-to-video`: `providers.voice` speaks elevenlabs, which makes no video (video_models); the dialects that do are reference, openai, fal, replicate or kling: name one of the profile's accounts that does (fal) in `provider:`, or remove `provider:` to use `service` (reference)",
      );
      expect(result.stderr, command).not.toMatch(/TypeError|\n\s+at /);
    }
    const after = await Promise.all(servers.map((server) => stats(server)));
    expect(after.map(served)).toEqual(before.map(served));
  });

  it("runs offline with no address anywhere, each account on a built-in simulator of its dialect", async () => {
    const offline = path.join(work.dir, "offline.config.yaml");
    const text = (await readFile(PROFILE, "utf8"))
      .split("\n")
      .filter((row) => !row.includes("base_url:"))
      .join("\n");
    await writeFile(offline, text);
    const result = await runCli(["run", PIPELINE, "--config", offline, "--json"], {
      cwd: work.dir,
      env: cleanEnv(),
    });
    expect(result.code, result.stderr).toBe(0);
    const end = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as {
      type: string;
      status: string;
    };
    expect(end).toMatchObject({ type: "run.end", status: "succeeded" });

    // With an account's address but none for service, nothing runs half real, half simulated.
    const half = path.join(work.dir, "half.config.yaml");
    await writeFile(
      half,
      text.replace("dialect: fal", "dialect: fal\n    base_url: https://queue.fal.run"),
    );
    const refused = await runCli(["run", PIPELINE, "--config", half], {
      cwd: work.dir,
      env: env(),
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "gives providers an address (providers.fal.base_url) but service has none",
    );
  });

  it("with a rate for the dollars, a credit budget holds the whole run and its ledger", async () => {
    const rated = path.join(work.dir, "rated.config.yaml");
    await writeFile(
      rated,
      (await readFile(config, "utf8")).replace("unit: usd", "unit: usd\n    credits_per_unit: 100"),
    );
    // Planned as it runs below, with no cache (an earlier test here cached the keyframe).
    const planned = await runCli(["plan", PIPELINE, "--config", rated, "--no-cache", "--json"], {
      cwd: work.dir,
      env: env(),
    });
    const { estimate } = (
      JSON.parse(planned.stdout) as {
        limits: { estimate: { credits: number; otherUnits?: unknown } };
      }
    ).limits;
    // fal's dollars × 100 credits a dollar (85, whole), with the keyframe and the narration.
    expect(estimate.credits).toBe(4 + NARRATION.length + 85);
    expect(estimate.otherUnits).toBeUndefined();
    const result = await runCli(
      ["run", PIPELINE, "--config", rated, "--max-credits", "500", "--no-cache", "--json"],
      { cwd: work.dir, env: env() },
    );
    expect(result.code, result.stderr).toBe(0);
    const end = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as {
      type: string;
      totals: { credits: number };
    };
    expect(end.type).toBe("run.end");
    expect(end.totals.credits).toBe(estimate.credits);
  });
});
