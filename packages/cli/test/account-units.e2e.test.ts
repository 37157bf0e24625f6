import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CliProcess,
  cleanEnv,
  jsonEvents,
  runCli,
  startCli,
  tempDir,
} from "./helpers/cli-process.js";

// An account of the reference dialect that bills in dollars (no rate to credits) and reports
// what each request cost (`usage.total_credits`) in dollars: counted as dollars, never as
// credits, and the same figures in the plan, run.end, run.json, the table and its own bill.
const KEY = "units-reference-key-0123456789";
const PROFILE = `service:
  base_url: https://units.invalid
  api_key_env: [UNITS_KEY]
  idempotency_keys: true
providers:
  dollars:
    dialect: reference
    base_url: https://units.invalid
    api_key_env: [UNITS_KEY]
    idempotency_keys: true
    unit: usd
chat_models:
  reel-chat-1: { json: true }
image_models:
  reel-image-1: { sizes: [1024x1024], price: { per_image: 4 } }
  dollar-image: { provider: dollars, sizes: [1024x1024], max_images: 4, price: { per_image: 0.05 } }
video_models:
  dollar-clip:
    provider: dollars
    seconds: [4]
    sizes: [854x480]
    image: false
    price: { per_megapixel_second: 0.01 }
speech_models:
  dollar-voice: { provider: dollars, voices: [ava], formats: [wav], price: { per_1000_characters: 15 } }
transcription_models:
  reel-transcribe-1: { price: { per_minute: 1 } }
`;
const PIPELINE = `name: account-units
steps:
  - id: keyframe
    image: { model: reel-image-1, prompt: A lighthouse at dusk., size: 1024x1024 }
  - id: posters
    image: { model: dollar-image, prompt: A lighthouse poster., size: 1024x1024, n: 3 }
  - id: clip
    video: { model: dollar-clip, prompt: The sea at night., seconds: 4, size: 854x480, output: clip.mp4 }
`;
/** Three posters at 5 cents (0.15), and 4 s of 854x480 at a cent a megapixel-second (0.0163968). */
const USD = 0.1663968;

let work: Awaited<ReturnType<typeof tempDir>>;
let server: CliProcess;
let url: string;
let config: string;
let pipeline: string;
const env = () => cleanEnv({ UNITS_KEY: KEY });

beforeAll(async () => {
  work = await tempDir("reelsmith-units-");
  const served = path.join(work.dir, "served.config.yaml");
  await writeFile(served, PROFILE);
  server = startCli(["serve", "--config", served, "--time-scale", "0.01", "--api-key", KEY], {
    cwd: work.dir,
  });
  await server.waitFor((output) => output.stdout.includes("Press Ctrl-C to stop."));
  url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output.stdout)?.[1] ?? "";
  config = path.join(work.dir, "reelsmith.config.yaml");
  await writeFile(config, PROFILE.replaceAll("https://units.invalid", url));
  pipeline = path.join(work.dir, "pipeline.yaml");
  await writeFile(pipeline, PIPELINE);
});
afterAll(async () => {
  server?.child.kill("SIGINT");
  await server?.done;
  await work?.remove();
});

async function bill(): Promise<number> {
  const response = await fetch(`${url}/_simulator/stats`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return ((await response.json()) as { creditsCharged: number }).creditsCharged;
}

/** Runs a pipeline with a profile and no cache; its `run.end` event, once it exited 0. */
async function runToEnd(pipelineFile: string, profile: string) {
  const result = await runCli(["run", pipelineFile, "--config", profile, "--json", "--no-cache"], {
    cwd: work.dir,
    env: env(),
  });
  expect(result.code, result.stderr).toBe(0);
  const end = jsonEvents<{
    type: string;
    totals?: { credits: number; otherUnits?: Record<string, number> };
  }>(result.stdout).at(-1);
  expect(end?.type).toBe("run.end");
  return end;
}

describe("an account that reports its charge in its own unit (built CLI)", () => {
  it("counts the dollars it reports as dollars, apart from the credits, as the plan said", async () => {
    const planned = await runCli(["plan", pipeline, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(planned.code, planned.stderr).toBe(0);
    const { estimate } = (
      JSON.parse(planned.stdout) as {
        limits: {
          estimate: { credits: number; otherUnits?: Record<string, { amount: number }> };
        };
      }
    ).limits;
    expect(estimate.credits).toBe(4);
    expect(estimate.otherUnits?.usd?.amount).toBe(USD);

    const result = await runCli(["run", pipeline, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    const events = jsonEvents<{
      type: string;
      runDir?: string;
      totals?: { credits: number; otherUnits?: Record<string, number> };
    }>(result.stdout);
    const end = events.at(-1);
    expect(end?.type).toBe("run.end");
    // Only the keyframe is in credits; what the dollars account reported is in dollars.
    expect(end?.totals?.credits).toBe(estimate.credits);
    expect(end?.totals?.otherUnits).toEqual({ usd: USD });
    const runDir = path.resolve(work.dir, events.find((e) => e.type === "run.start")?.runDir ?? "");
    const run = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8")) as {
      totals: { credits: number; otherUnits?: Record<string, number> };
    };
    expect(run.totals).toMatchObject({ credits: 4, otherUnits: { usd: USD } });
    // The simulator billed 4 credits and the dollars, and reported each in its account's unit.
    expect(await bill()).toBe(4.1663968);

    const shown = await runCli(["run", pipeline, "--config", config, "--no-cache"], {
      cwd: work.dir,
      env: env(),
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      `and ${USD} usd spent, not in credits (a provider's unit with no credits_per_unit)`,
    );
  });
});

// A voice of the dollars account (no rate to credits) whose words the service's own
// transcription times, priced in credits: the plan splits the narration as the run does.
const NARRATED = `name: account-units-voice
steps:
  - id: narration
    for_each: [1, 2]
    speech: { model: dollar-voice, voice: ava, input: A lighthouse stands! }
  - id: tagline
    speech: { model: dollar-voice, voice: ava, input: The sea is calm tonight. }
`;
/** 2 × 20 and 24 characters at 15 usd per 1,000: 0.6 + 0.36 usd; each transcription 1 credit. */
const VOICE_USD = 0.96;

describe("a narration whose voice bills in dollars and whose words are timed in credits", () => {
  it("plans, runs and bills the voice in dollars and the transcriptions in credits", async () => {
    const narrated = path.join(work.dir, "narrated.yaml");
    await writeFile(narrated, NARRATED);
    const planned = await runCli(["plan", narrated, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(planned.code, planned.stderr).toBe(0);
    const { estimate } = (
      JSON.parse(planned.stdout) as {
        limits: {
          estimate: {
            credits: number;
            complete: boolean;
            otherUnits?: Record<string, { amount: number; complete: boolean }>;
          };
        };
      }
    ).limits;
    expect(estimate).toMatchObject({ credits: 3, complete: true });
    expect(estimate.otherUnits?.usd).toMatchObject({ amount: VOICE_USD, complete: true });
    const text = await runCli(["plan", narrated, "--config", config], {
      cwd: work.dir,
      env: env(),
    });
    expect(text.stdout).toContain("narration  2 × 1 = 2, and 0.6 usd");
    expect(text.stdout).toContain("tagline    1, and 0.36 usd");

    const before = await bill();
    const end = await runToEnd(narrated, config);
    expect(end?.totals?.credits).toBe(estimate.credits);
    expect(end?.totals?.otherUnits).toEqual({ usd: VOICE_USD });
    // The simulator's own bill: the two transcriptions' credits and the voices' dollars.
    expect(Math.round(((await bill()) - before) * 1e9) / 1e9).toBe(3 + VOICE_USD);
  });

  it("counts the narrations the cache holds as free in both units, in the plan and the run", async () => {
    const narrated = path.join(work.dir, "narrated-cached.yaml");
    await writeFile(narrated, NARRATED.replace("account-units-voice", "account-units-cached"));
    const made = await runCli(["run", narrated, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(made.code, made.stderr).toBe(0);
    type Estimate = {
      credits: number;
      otherUnits?: Record<string, { amount: number; complete: boolean }>;
      steps: Record<string, { cached?: number; credits?: number; otherUnits?: unknown }>;
    };
    const planned = await runCli(["plan", narrated, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(planned.code, planned.stderr).toBe(0);
    const estimate = (JSON.parse(planned.stdout) as { limits: { estimate: Estimate } }).limits
      .estimate;
    expect(estimate.credits).toBe(0);
    expect(estimate.steps.narration).toMatchObject({ cached: 2, credits: 0 });
    expect(estimate.otherUnits?.usd).toMatchObject({ amount: 0, complete: true });
    const before = await bill();
    const again = await runCli(["run", narrated, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(again.code, again.stderr).toBe(0);
    const events = jsonEvents<{ type: string; estimate?: Estimate }>(again.stdout);
    const atStart = events.find((event) => event.type === "run.estimate")?.estimate;
    expect(atStart?.credits).toBe(0);
    expect(atStart?.otherUnits?.usd).toMatchObject({ amount: 0 });
    expect((await bill()) - before).toBe(0);
  });
});

describe("a voice of an account with a rate to credits", () => {
  it("counts whole credits per request, rounded up, as the plan said and as its bill × rate gives them", async () => {
    // 10 credits a dollar: 0.3 usd is 3 credits; 0.36 usd is 3.6, counted as 4.
    const rated = path.join(work.dir, "rated-voice.config.yaml");
    await writeFile(
      rated,
      (await readFile(config, "utf8")).replace("unit: usd", "unit: usd\n    credits_per_unit: 10"),
    );
    const narrated = path.join(work.dir, "narrated.yaml");
    await writeFile(narrated, NARRATED);
    const planned = await runCli(["plan", narrated, "--config", rated, "--no-cache"], {
      cwd: work.dir,
      env: env(),
    });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain("expected cost: 13 credits");
    expect(planned.stdout).toContain("narration  2 × 4 = 8");
    expect(planned.stdout).toContain("tagline    5");
    const before = await bill();
    const end = await runToEnd(narrated, rated);
    expect(end?.totals?.credits).toBe(13);
    expect(end?.totals?.otherUnits).toBeUndefined();
    // Billed: 0.96 usd and 3 transcription credits; each voice request rounded up on its own
    // (3 + 3 + 4, not 9.6).
    expect(Math.round(((await bill()) - before) * 1e9) / 1e9).toBe(3 + VOICE_USD);
  });
});

// Posters in dollars, one per scene of a storyboard whose length only the run knows: once it
// is known, the run's estimate says the dollars, as its end and the simulator's bill do.
const SCENES = `name: account-units-scenes
steps:
  - id: storyboard
    chat:
      model: reel-chat-1
      prompt: Split a lighthouse story into scenes.
      schema:
        type: object
        required: [scenes]
        properties:
          scenes:
            type: array
            minItems: 1
            maxItems: 3
            items: { type: object, required: [description], properties: { description: { type: string } } }
  - id: posters
    for_each: \${{ steps.storyboard.outputs.json.scenes }}
    image: { model: dollar-image, prompt: "\${{ item.description }}", size: 1024x1024 }
`;

describe("a fan-out in dollars whose length only the run knows", () => {
  it("works out its dollars once the length is known: the estimate, run.end and the bill agree", async () => {
    const scenes = path.join(work.dir, "scenes.yaml");
    await writeFile(scenes, SCENES);
    type Estimate = { otherUnits?: Record<string, { amount: number; complete: boolean }> };
    const planned = await runCli(["plan", scenes, "--config", config, "--json"], {
      cwd: work.dir,
      env: env(),
    });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as { limits: { estimate: Estimate } };
    expect(plan.limits.estimate.otherUnits?.usd?.complete).toBe(false);

    const before = await bill();
    const result = await runCli(["run", scenes, "--config", config, "--json", "--no-cache"], {
      cwd: work.dir,
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    const events = jsonEvents<{
      type: string;
      estimate?: Estimate;
      totals?: { otherUnits?: Record<string, number> };
    }>(result.stdout);
    const usd = events.at(-1)?.totals?.otherUnits?.usd;
    expect(usd).toBeGreaterThan(0);
    const known = events.filter((event) => event.type === "run.estimate").at(-1)?.estimate;
    expect(known?.otherUnits?.usd).toMatchObject({ amount: usd, complete: true });
    expect(Math.round(((await bill()) - before) * 1e9) / 1e9).toBe(usd);
  });
});
