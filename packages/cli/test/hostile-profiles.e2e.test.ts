// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cleanEnv, runCli, tempDir } from "./helpers/cli-process.js";

/** A fake key no output may ever show. */
const SECRET = "sk-test-SECRET-0123456789abcdef";
const KEY = "sk-e2e-hostile-key-0123456789";

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
/** A finished run of takes.yaml (two clips), for the retake cases. */
let runDir: string;
beforeAll(async () => {
  work = await tempDir("reelsmith-hostile-");
  // The service lists acme-video with its limits and price (typed, as the interface allows).
  simulator = await startSimulator({
    apiKey: KEY,
    timeScale: 0.01,
    profile: parse(
      "video_models:\n  acme-video: { seconds: [1, 2], sizes: [854x480], price: { per_clip: 9 } }\nchat_models:\n  reel-chat-1: null\n",
    ),
  });
  await writeFile(
    path.join(work.dir, "clip.yaml"),
    [
      "name: clip",
      "steps:",
      "  - id: title",
      '    chat: { model: reel-chat-1, prompt: "Title a film about a boat" }',
      "  - id: clip",
      '    video: { model: acme-video, prompt: "a paper boat", seconds: 1, size: 854x480 }',
      "",
    ].join("\n"),
  );
  await writeFile(
    path.join(work.dir, "takes.yaml"),
    [
      "name: takes",
      "steps:",
      "  - id: clips",
      "    for_each: [boat, kite]",
      '    video: { model: acme-video, prompt: "a paper ${{ item }}", seconds: 1, size: 854x480 }',
      "",
    ].join("\n"),
  );
  const run = await runCli(["run", "takes.yaml", "--json"], { cwd: work.dir, env: env() });
  expect(run.code, run.stderr).toBe(0);
  runDir = String(
    run.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { type: string; runDir?: string })
      .find((event) => event.type === "run.start")?.runDir,
  );
  await writeFile(
    path.join(work.dir, "unlisted.yaml"),
    [
      "name: unlisted",
      "steps:",
      "  - id: title",
      '    chat: { model: reel-chat-1, prompt: "Title a film about a boat" }',
      "  - id: clip",
      '    video: { model: nowhere-video, prompt: "a paper boat", seconds: 1, size: 854x480 }',
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

const env = (extra: Record<string, string> = {}) =>
  cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: KEY, ...extra });

/** One hostile input: the files it writes, the command, and what must come out. */
interface HostileCase {
  name: string;
  files?: Record<string, string | Buffer>;
  setup?: (dir: string) => void;
  /** The command's arguments (a function when they name the run made before the cases). */
  args: string[] | (() => string[]);
  env?: Record<string, string>;
  code: number;
  message: RegExp;
}

const profile = (text: string) => ({ "p.yaml": text });

const cases: HostileCase[] = [
  {
    name: "a token nested deep under an unknown key",
    files: profile(
      `video_models:\n  m:\n    seconds: [1]\n    notes: { deeper: { token: "${SECRET}" } }\n`,
    ),
    args: ["validate", "clip.yaml", "--config", "p.yaml"],
    code: 2,
    message: /p\.yaml:4:\d+: error: .*`token` looks like a secret/,
  },
  {
    name: "credentials, bearer and passwd lines",
    files: profile(
      `service:\n  credentials: ${SECRET}\n  bearer: ${SECRET}\n  passwd: ${SECRET}\n`,
    ),
    args: ["validate", "clip.yaml", "--config", "p.yaml"],
    code: 2,
    message: /p\.yaml:3:3: error: `bearer` looks like a secret/,
  },
  {
    name: "a key pasted into api_key_env",
    files: profile(`service:\n  api_key_env: [MY_KEY, ${SECRET}]\n`),
    args: ["validate", "clip.yaml", "--config", "p.yaml"],
    code: 2,
    message: /p\.yaml:2:\d+: error: `service\.api_key_env\.1` holds a value that looks like a key/,
  },
  {
    name: "a base URL without a host",
    files: profile('service:\n  base_url: "http://"\n'),
    args: ["validate", "clip.yaml", "--config", "p.yaml"],
    code: 2,
    message: /p\.yaml:2:13: error: `service\.base_url` is not a valid URL/,
  },
  {
    name: "a base URL holding a key, in the profile",
    files: profile(`service:\n  base_url: "http://u:${SECRET}@127.0.0.1:9"\n`),
    args: ["validate", "clip.yaml", "--config", "p.yaml"],
    code: 2,
    message: /p\.yaml:2:3: error: `service\.base_url` holds credentials/,
  },
  {
    name: "a base URL holding a key, in the environment",
    args: ["run", "clip.yaml"],
    env: { REELSMITH_BASE_URL: `http://user:${SECRET}@127.0.0.1:9` },
    code: 2,
    message:
      /REELSMITH_BASE_URL: the base URL holds credentials \(http:\/\/\*\*\*@127\.0\.0\.1:9\/\)[\s\S]*put the key in REELSMITH_API_KEY/,
  },
  {
    name: "an infinite price",
    files: profile("video_models:\n  acme-video:\n    price: { per_second: .inf }\n"),
    args: ["validate", "clip.yaml", "--config", "p.yaml"],
    code: 2,
    message: /p\.yaml:3:\d+: error: .*per_second`: got Infinity; expected a finite number/,
  },
  {
    name: "a negative price",
    files: profile("video_models:\n  acme-video:\n    price: { per_clip: -3 }\n"),
    args: ["validate", "clip.yaml", "--config", "p.yaml"],
    code: 2,
    message: /p\.yaml:3:\d+: error: .*per_clip`: got -3; must be >= 0/,
  },
  {
    name: "a profile that is not UTF-8",
    files: { "p.yaml": Buffer.from("service:\n  dialect: r\xe9f\n", "latin1") },
    args: ["validate", "clip.yaml", "--config", "p.yaml"],
    code: 2,
    message: /p\.yaml:2:13: error: not UTF-8 text: byte 21 \(0xe9\) is not valid UTF-8/,
  },
  {
    name: "a named pipe given as the profile",
    setup: (dir) => execFileSync("mkfifo", [path.join(dir, "fifo.yaml")]),
    args: ["validate", "clip.yaml", "--config", "fifo.yaml"],
    code: 2,
    message: /cannot read the provider profile: it is a named pipe \(FIFO\), not a file/,
  },
  {
    name: "a device given as the profile",
    args: ["validate", "clip.yaml", "--config", "/dev/null"],
    code: 2,
    message: /cannot read the provider profile: it is a character device, not a file/,
  },
  {
    name: "a video model neither declared nor listed: refused before the chat is paid",
    files: profile("video_models:\n  other-video: { seconds: [1], price: { per_clip: 1 } }\n"),
    args: ["run", "unlisted.yaml", "--config", "p.yaml"],
    code: 2,
    message:
      /unknown to the service; nothing was sent:\n {2}\S*unlisted\.yaml:6:\d+: video model `nowhere-video` is not offered by the service; did you mean `other-video`\? \(unknown_model\)/,
  },
];

/** Retakes of the finished run with hostile arguments (its journal must not change). */
const retake =
  (...args: string[]) =>
  () => ["retake", runDir, "--step", "clips", ...args];
const retakeCases: HostileCase[] = [
  {
    name: "a retake with a key as a param's value",
    args: retake("--item", "0", "--param", `token=${SECRET}`),
    code: 2,
    message: /--param token holds what looks like a key \(not shown\); nothing was sent or written/,
  },
  {
    name: "a retake with a key under an innocent param name",
    args: retake("--item", "0", "--param", `style=${SECRET}`),
    code: 2,
    message: /--param style holds what looks like a key/,
  },
  {
    name: "a retake with a key in its prompt",
    args: retake("--item", "0", "--prompt", `a paper boat, auth Bearer ${SECRET}`),
    code: 2,
    message: /--prompt holds what looks like a key \(not shown\)/,
  },
  {
    name: "a retake with a key given as a param",
    args: retake("--item", "0", "--param", SECRET),
    code: 2,
    message: /--param expects key=value, got '<redacted>'/,
  },
  {
    name: "a retake with a param whose value is an object",
    args: retake("--item", "0", "--param", 'x={"a":1}'),
    code: 2,
    message:
      /the new take of `clips` #0 would be refused: .*params\.x.*nothing was written or sent/,
  },
  {
    name: "a retake with a 120 KB prompt",
    args: retake("--item", "0", "--prompt", "a paper boat ".repeat(10_000)),
    code: 2,
    message: /the new take of `clips` #0 would be refused: .*prompt.*nothing was written or sent/,
  },
  {
    name: "a retake of an item that does not exist, with a key in its prompt",
    args: retake("--item", "9", "--prompt", `${SECRET}`),
    code: 2,
    message: /--prompt holds what looks like a key|there is no item 9/,
  },
];

describe("hostile profiles and arguments", () => {
  for (const hostile of [...cases, ...retakeCases]) {
    it(`${hostile.name}: exit ${hostile.code}, a clear message, no secret, nothing sent`, async () => {
      const dir = path.join(work.dir, hostile.name.replace(/\W+/g, "-"));
      execFileSync("mkdir", ["-p", dir]);
      execFileSync("cp", [
        path.join(work.dir, "clip.yaml"),
        path.join(work.dir, "unlisted.yaml"),
        dir,
      ]);
      for (const [name, content] of Object.entries(hostile.files ?? {}))
        await writeFile(path.join(dir, name), content);
      hostile.setup?.(dir);
      const before = simulator.stats();
      const journal = readFileSync(path.join(runDir, "journal.jsonl"));
      const args = typeof hostile.args === "function" ? hostile.args() : hostile.args;
      const result = await runCli(args, { cwd: dir, env: env(hostile.env) });
      const output = result.stdout + result.stderr;
      expect(result.code, output).toBe(hostile.code);
      expect(output).toMatch(hostile.message);
      expect(output).not.toContain(SECRET);
      expect(output).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
      const after = simulator.stats();
      expect(after.chatCompletions).toBe(before.chatCompletions);
      expect(after.videoJobs.created).toBe(before.videoJobs.created);
      expect(readFileSync(path.join(runDir, "journal.jsonl"))).toEqual(journal);
    });
  }

  it("a value from an input that breaks a limit is refused at the field that uses it, with a caret", async () => {
    const dir = path.join(work.dir, "input-limit");
    execFileSync("mkdir", ["-p", dir]);
    await writeFile(
      path.join(dir, "long.yaml"),
      [
        "name: long",
        "inputs:",
        "  seconds: { type: integer, default: 2 }",
        "steps:",
        "  - id: clip",
        "    video:",
        "      model: acme-video",
        '      prompt: "a paper boat"',
        "      seconds: ${{ inputs.seconds }}",
        "      size: 854x480",
        "",
      ].join("\n"),
    );
    const before = simulator.stats();
    const result = await runCli(["run", "long.yaml", "--input", "seconds=30"], {
      cwd: dir,
      env: env(),
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      [
        "long.yaml:9:16: `seconds: 30` is not one of acme-video's 1 or 2 seconds (with the run's inputs) (pipeline_invalid)",
        "        seconds: ${{ inputs.seconds }}",
        "                 ^",
      ].join("\n"),
    );
    expect(simulator.stats().chatCompletions).toBe(before.chatCompletions);
    expect(simulator.stats().videoJobs.created).toBe(before.videoJobs.created);
  });

  it("a video model the profile does not declare but the service lists runs, checked against the listed limits", async () => {
    const dir = path.join(work.dir, "listed");
    execFileSync("mkdir", ["-p", dir]);
    execFileSync("cp", [path.join(work.dir, "clip.yaml"), dir]);
    await writeFile(
      path.join(dir, "p.yaml"),
      "video_models:\n  other-video: { seconds: [1], price: { per_clip: 1 } }\n",
    );
    const before = simulator.stats();
    const result = await runCli(["run", "clip.yaml", "--config", "p.yaml"], {
      cwd: dir,
      env: env(),
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const after = simulator.stats();
    expect(after.videoJobs.created - before.videoJobs.created).toBe(1);
    expect(after.creditsCharged - before.creditsCharged).toBe(9);
  });
});
