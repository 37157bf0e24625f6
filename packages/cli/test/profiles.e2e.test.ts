import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { providerNames } from "@reelsmith/core/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  type CliProcess,
  cleanEnv,
  EXAMPLES,
  runCli,
  startCli,
  tempDir,
} from "./helpers/cli-process.js";

/** The providers a bad dialect's message lists: "reference, openai, fal or …", from the registry. */
const allowedDialects = `${providerNames.slice(0, -1).join(", ")} or ${providerNames.at(-1)}`;

const KEY = "sk-profile-e2e-0123456789abcdef";
const PROFILE = path.join(EXAMPLES, "real-provider", "reelsmith.config.yaml");
const PIPELINE = path.join(EXAMPLES, "real-provider", "pipeline.yaml");

/** A `reelsmith serve` process and where it listens. */
interface Served {
  process: CliProcess;
  url: string;
}

async function serve(args: string[], cwd: string): Promise<Served> {
  const process = startCli(["serve", "--time-scale", "0.01", "--api-key", KEY, ...args], { cwd });
  await process.waitFor((output) => output.stdout.includes("Press Ctrl-C to stop."));
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(process.output.stdout)?.[1];
  if (!url) throw new Error(`no URL in:\n${process.output.stdout}`);
  return { process, url };
}

async function simulatorState<T>(served: Served, route: string): Promise<T> {
  const response = await fetch(`${served.url}${route}`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

type Stats = { requests: Record<string, Record<string, number>> };
const videoPosts = (stats: Stats) =>
  Object.values(stats.requests["POST /v1/videos"] ?? {}).reduce((sum, n) => sum + n, 0);

/** Lines of a stack trace, which the CLI never prints without --debug. */
const stackLine = /^\s+at .+\(.+:\d+:\d+\)$/m;

let work: Awaited<ReturnType<typeof tempDir>>;
let chatOnly: Served;
beforeAll(async () => {
  work = await tempDir("reelsmith-profiles-");
  chatOnly = await serve(["--config", PROFILE, "--chat-models-only"], work.dir);
});
afterAll(async () => {
  chatOnly?.process.child.kill("SIGINT");
  await chatOnly?.process.done;
  await work?.remove();
});

const service = () => cleanEnv({ REELSMITH_BASE_URL: chatOnly.url, REELSMITH_API_KEY: KEY });

describe("provider profiles (built CLI, reelsmith serve --config)", () => {
  it("serve lists only the chat model; a run naming veo-3-fast is refused without the profile and succeeds with it", async () => {
    expect(chatOnly.process.output.stdout).toContain(
      "(video: veo-3-fast, veo-3), dialect reference",
    );
    const models = await simulatorState<{ data: { id: string }[] }>(chatOnly, "/v1/models");
    expect(models.data.map((model) => model.id)).toEqual(["gpt-4o-mini"]);

    const refused = await runCli(["run", PIPELINE], { cwd: work.dir, env: service() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${PIPELINE}:20:19: video model \`veo-3-fast\` is not offered by the service`,
    );
    expect(refused.stderr).toMatch(
      /hint: .*declare `veo-3-fast` with its limits and price under video_models: in a provider profile/,
    );
    expect(refused.stderr).not.toMatch(stackLine);
    expect(videoPosts(await simulatorState<Stats>(chatOnly, "/_simulator/stats"))).toBe(0);

    // REELSMITH_BASE_URL comes before the profile's base_url (https://media.example.com).
    const result = await runCli(["run", PIPELINE, "--config", PROFILE, "--json"], {
      cwd: work.dir,
      env: service(),
    });
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { type: string; stage?: string; result?: { status: string } },
      );
    expect(
      events.filter((event) => event.type === "unit.progress" && event.stage === "submitted"),
    ).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: "run.end" });
    const stats = await simulatorState<Stats & { videoJobs: { byModel: Record<string, number> } }>(
      chatOnly,
      "/_simulator/stats",
    );
    expect(stats.videoJobs.byModel).toEqual({ "veo-3-fast": 2 });
    // The clips' params, as the profile declares them: JSON fields of their own types.
    const { videos } = await simulatorState<{ videos: { fields: Record<string, unknown> }[] }>(
      chatOnly,
      "/_simulator/requests",
    );
    expect(videos).toHaveLength(2);
    for (const video of videos) {
      expect(video.fields).toMatchObject({ seed: 42, negative_prompt: "blurry, text, watermark" });
    }
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("runs the storyboard example on the profile's models given as inputs, and refuses inputs a model does not take with 0 requests", async () => {
    const storyboard = path.join(EXAMPLES, "storyboard", "pipeline.yaml");
    const before = await simulatorState<Stats>(chatOnly, "/_simulator/stats");
    const inputs = (seconds: number, videoModel = "veo-3-fast") => [
      "--config",
      PROFILE,
      "--input",
      "chat_model=gpt-4o-mini",
      "--input",
      `video_model=${videoModel}`,
      "--input",
      `seconds=${seconds}`,
      "--input",
      "size=1280x720",
      "--input",
      "scenes=2",
    ];
    for (const [args, message] of [
      [inputs(12), /`seconds: 12` is over veo-3-fast's 8 \(with the run's inputs\)/],
      [
        inputs(4, "veo-9"),
        // Refused by the model check, offline or against the service's list, before any request.
        /(unknown )?video model `veo-9` \(the value given for input `video_model`\)( is not offered by the service)?; did you mean `veo-3`\?/,
      ],
    ] as const) {
      const refused = await runCli(["run", storyboard, ...args], { cwd: work.dir, env: service() });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(message);
      expect(refused.stderr).toMatch(/storyboard\/pipeline\.yaml:\d+:\d+: /);
      expect(refused.stderr).not.toMatch(stackLine);
    }
    const refusedStats = await simulatorState<Stats>(chatOnly, "/_simulator/stats");
    expect(videoPosts(refusedStats)).toBe(videoPosts(before));
    expect(refusedStats.requests["POST /v1/chat/completions"]).toEqual(
      before.requests["POST /v1/chat/completions"],
    );

    const result = await runCli(["run", storyboard, ...inputs(4), "--json"], {
      cwd: work.dir,
      env: service(),
    });
    expect(result.code, result.stderr).toBe(0);
    const jobs = await simulatorState<{ data: { model: string; seconds: string; size: string }[] }>(
      chatOnly,
      "/v1/videos?limit=100",
    );
    const made = jobs.data.slice(0, 2);
    for (const job of made) expect(job).toMatchObject({ model: "veo-3-fast", size: "1280x720" });
    // 5 a clip + 10 a second, as the profile prices veo-3-fast.
    const end = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .find((event) => event.type === "run.end");
    expect(end.totals.credits).toBe(2 * (5 + 10 * 4));
  });

  it("validate checks limits against the profile offline: seconds and sizes at file:line:column, with the allowed values and the nearest model", async () => {
    const before = await simulatorState<Stats>(chatOnly, "/_simulator/stats");
    await writeFile(
      path.join(work.dir, "limits.yaml"),
      [
        "name: limits",
        "steps:",
        "  - id: long",
        "    video:",
        "      model: veo-3-fast",
        "      prompt: a lighthouse at dusk",
        "      seconds: 12",
        "  - id: wide",
        "    video:",
        "      model: veo-3-fast",
        "      prompt: a stormy sea",
        "      seconds: 8",
        "      size: 1920x1080",
        "",
      ].join("\n"),
    );
    // The service is configured, yet validate never calls it.
    const result = await runCli(["validate", "limits.yaml", "--config", PROFILE], {
      cwd: work.dir,
      env: service(),
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(
      /^limits\.yaml:7:16: error: `seconds: 12` is over veo-3-fast's 8$/m,
    );
    expect(result.stdout).toContain("hint: veo-3-fast allows 1 to 8 seconds");
    expect(result.stdout).toMatch(
      /^limits\.yaml:13:13: error: `size: 1920x1080` is not offered by veo-3-fast \(1280x720 or 720x1280\); veo-3 offers 1920x1080/m,
    );
    expect(result.stdout).toMatch(/^ {8}size: 1920x1080\n {14}\^$/m);
    expect(result.stderr).toContain("2 errors");
    const after = await simulatorState<Stats>(chatOnly, "/_simulator/stats");
    // Only the stats requests of this test itself were answered in between.
    const { "GET /_simulator/stats": _before, ...served } = before.requests;
    const { "GET /_simulator/stats": _after, ...servedAfter } = after.requests;
    expect(servedAfter).toEqual(served);
  });

  it("runs against serve --dialect openai with an openai profile: multipart requests, the job ends completed with created_at", async () => {
    const dir = path.join(work.dir, "openai");
    await mkdir(dir);
    await writeFile(
      path.join(dir, "reelsmith.config.yaml"),
      [
        "service:",
        "  api_key_env: [OPENAI_API_KEY]",
        "  dialect: openai",
        "  lists_jobs: true",
        "  poll_interval: 200ms",
        "video_models:",
        "  sora-2:",
        "    seconds: [4, 8, 12]",
        "    sizes: [1280x720, 720x1280]",
        "    price: { per_second: 0.1 }",
        "chat_models:",
        "  gpt-4o-mini: { images: true, json: true, tools: true }",
        "",
      ].join("\n"),
    );
    await writeFile(
      path.join(dir, "pipeline.yaml"),
      "name: sora\nsteps:\n  - id: clip\n    video: { model: sora-2, prompt: a paper boat, seconds: 4, size: 720x1280 }\n",
    );
    // The profile is found in the working directory; its dialect says openai too.
    const served = await serve(["--dialect", "openai", "--chat-models-only"], dir);
    try {
      expect(served.process.output.stdout).toContain(
        "serving the models of reelsmith.config.yaml (video: sora-2), dialect openai",
      );
      // The key comes from OPENAI_API_KEY, the variable the profile's api_key_env names.
      const result = await runCli(["run", "pipeline.yaml", "--json"], {
        cwd: dir,
        env: cleanEnv({ REELSMITH_BASE_URL: served.url, OPENAI_API_KEY: KEY }),
      });
      expect(result.code, result.stderr).toBe(0);
      const submitted = result.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { type: string; stage?: string; job?: string })
        .find((event) => event.type === "unit.progress" && event.stage === "submitted");
      expect(submitted?.job).toBeDefined();
      const { videos: received } = await simulatorState<{
        videos: { contentType: string; fields: object }[];
      }>(served, "/_simulator/requests");
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        contentType: "multipart/form-data",
        fields: { model: "sora-2", seconds: "4", size: "720x1280" },
      });
      const job = await simulatorState<{ status: string; created_at: number }>(
        served,
        `/v1/videos/${submitted?.job}`,
      );
      expect(job.status).toBe("completed");
      expect(typeof job.created_at).toBe("number");
      const statuses = new Set(
        result.stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { type: string; stage?: string; status?: string })
          .filter((event) => event.type === "unit.progress" && event.stage === "status")
          .map((event) => event.status),
      );
      // queued and in_progress read as pending and processing; the last one is completed.
      for (const status of statuses)
        expect(["pending", "processing", "completed"]).toContain(status);
      expect(statuses.has("completed")).toBe(true);
    } finally {
      served.process.child.kill("SIGINT");
      await served.process.done;
    }
  });

  it("refuses a profile with a key in it, a malformed one and an unknown dialect: exit 2 at file:line:column, never a stack trace or the key", async () => {
    const dir = path.join(work.dir, "bad");
    await mkdir(dir);
    const secret = "sk-live-do-not-print-4242";
    await writeFile(
      path.join(dir, "secret.yaml"),
      `service:\n  base_url: https://media.example.com\n  api_key: ${secret}\n`,
    );
    await writeFile(
      path.join(dir, "malformed.yaml"),
      "video_models:\n  veo-3-fast: { seconds: [4, 8\n",
    );
    await writeFile(path.join(dir, "dialect.yaml"), "service:\n  dialect: grpc\n");
    await copyFile(PIPELINE, path.join(dir, "pipeline.yaml"));
    const cases = [
      {
        file: "secret.yaml",
        at: /^secret\.yaml:3:3: error: .*api_key/m,
        line: "  api_key: <redacted>",
      },
      { file: "malformed.yaml", at: /^malformed\.yaml:\d+:\d+: error: YAML: /m },
      {
        file: "dialect.yaml",
        at: new RegExp(`^dialect\\.yaml:2:12: error: .*use ${allowedDialects}`, "m"),
        line: "  dialect: grpc",
      },
    ];
    for (const { file, at, line } of cases) {
      for (const command of [
        ["validate", "pipeline.yaml", "--config", file],
        ["run", "pipeline.yaml", "--config", file],
      ]) {
        const result = await runCli(command, { cwd: dir, env: cleanEnv() });
        const output = result.stdout + result.stderr;
        expect(result.code, `${command.join(" ")}\n${output}`).toBe(2);
        expect(result.stderr).toMatch(at);
        if (line) expect(result.stderr).toContain(`\n  ${line}\n`);
        expect(result.stderr).toMatch(/^ +\^$/m);
        expect(result.stderr).toContain(
          `error: the provider profile ${file} (named with --config)`,
        );
        expect(output).not.toMatch(stackLine);
        expect(output).not.toContain(secret);
        expect(output).not.toContain("built-in simulator");
      }
    }
    // REELSMITH_CONFIG names a profile too, and serve refuses a bad one as well.
    const viaEnv = await runCli(["serve"], {
      cwd: dir,
      env: cleanEnv({ REELSMITH_CONFIG: "secret.yaml" }),
    });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toContain("(named in REELSMITH_CONFIG)");
    expect(viaEnv.stderr + viaEnv.stdout).not.toContain(secret);
  });

  it("models --write-config writes a starting profile; validate then warns once per unknown model, naming the file", async () => {
    const dir = path.join(work.dir, "fresh");
    await mkdir(dir);
    const written = await runCli(["models", "--write-config", "--video-model", "veo-3-fast"], {
      cwd: dir,
      env: service(),
    });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain(
      "wrote reelsmith.config.yaml: 1 video model (veo-3-fast), 1 chat model",
    );
    const text = await readFile(path.join(dir, "reelsmith.config.yaml"), "utf8");
    expect(text.split("\n")[0]).toMatch(
      /^# yaml-language-server: \$schema=\S+\/core\/schema\/profile\.schema\.json$/,
    );
    expect(text).toContain("  api_key_env: [REELSMITH_API_KEY]\n");
    expect(text).not.toContain(KEY);
    expect(parse(text)).toMatchObject({
      service: { base_url: chatOnly.url, dialect: "reference" },
      video_models: { "veo-3-fast": { seconds: null, sizes: null, price: null } },
      chat_models: { "gpt-4o-mini": null },
    });

    await writeFile(
      path.join(dir, "second.yaml"),
      "name: second\nsteps:\n  - id: clip\n    video: { model: veo-3-fast, prompt: a boat, seconds: 30 }\n",
    );
    const validated = await runCli(["validate", PIPELINE, "second.yaml"], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
    const warnings = validated.stdout.match(/^reelsmith\.config\.yaml:\d+:3: warning: .*$/gm) ?? [];
    expect(warnings).toEqual([
      expect.stringContaining(
        "warning: video model `veo-3-fast`: seconds, sizes and price are unknown",
      ),
    ]);
    expect(validated.stdout).toContain(
      "hint: fill in `seconds`, `sizes` and `price` of veo-3-fast in reelsmith.config.yaml",
    );
    expect(validated.stdout).toContain("0 errors, 1 warning in 2 files");

    const again = await runCli(["models", "--write-config"], { cwd: dir, env: service() });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("reelsmith.config.yaml already exists; nothing was written");
    expect(await readFile(path.join(dir, "reelsmith.config.yaml"), "utf8")).toBe(text);
    const forced = await runCli(["models", "--write-config", "--force"], {
      cwd: dir,
      env: service(),
    });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain("wrote reelsmith.config.yaml: 0 video models, 1 chat model");
  });

  it("without a profile or a service, run uses the built-in simulator as before; with a profile and no service, the simulator serves the profile's models", async () => {
    const plain = path.join(work.dir, "plain");
    await mkdir(plain);
    await writeFile(
      path.join(plain, "clip.yaml"),
      "name: clip\nsteps:\n  - id: clip\n    video: { model: reel-video-2-lite, prompt: a boat, seconds: 1, size: 854x480 }\n",
    );
    const offline = await runCli(["run", "clip.yaml"], { cwd: plain, env: cleanEnv() });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout.split("\n")[0]).toMatch(
      /^no service configured \(REELSMITH_BASE_URL\): using the built-in simulator at http:\/\/127\.0\.0\.1:\d+; clips are synthetic$/,
    );

    const simulated = path.join(work.dir, "simulated");
    await mkdir(simulated);
    const profile = parse(await readFile(PROFILE, "utf8")) as { service: Record<string, unknown> };
    delete profile.service.base_url;
    const { stringify } = await import("yaml");
    await writeFile(path.join(simulated, "reelsmith.config.yaml"), stringify(profile));
    const result = await runCli(["run", PIPELINE, "--input", "scenes=1"], {
      cwd: simulated,
      env: cleanEnv(),
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.split("\n")[0]).toMatch(
      /^no service configured \(REELSMITH_BASE_URL, or service\.base_url in reelsmith\.config\.yaml\): using the built-in simulator at http:\/\/127\.0\.0\.1:\d+, serving the models of reelsmith\.config\.yaml; clips are synthetic$/,
    );
    // Spent 25 (the profile's price), as the estimate said once the fan-out's length was known.
    expect(result.stdout).toMatch(/clips\s+succeeded 1\/1 .* 25\s+-\s+25\s*$/m);
  });
});
