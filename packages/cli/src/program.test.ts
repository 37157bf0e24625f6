import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext } from "./__fixtures__/test-context.js";
import { cliVersion } from "./cli-version.js";
import { executeCli } from "./program.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "reelsmith-cli-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("executeCli", () => {
  it("prints help and the version with exit code 0", async () => {
    const help = createTestContext({ cwd: dir });
    expect(await executeCli(["--help"], help.context)).toBe(0);
    for (const command of [
      "run",
      "resume",
      "validate",
      "plan",
      "models",
      "serve",
      "studio",
      "init",
      "cache",
      "doctor",
    ]) {
      expect(help.output.stdout).toContain(`  ${command} `);
    }
    const version = createTestContext({ cwd: dir });
    expect(await executeCli(["--version"], version.context)).toBe(0);
    expect(version.output.stdout.trim()).toBe(cliVersion());
  });

  it("lists every exit code the CLI uses in --help", async () => {
    const { ExitCode } = await import("./errors/cli-error.js");
    const help = createTestContext({ cwd: dir });
    expect(await executeCli(["--help"], help.context)).toBe(0);
    const text = help.output.stdout.replace(/\s+/g, " ");
    for (const code of Object.values(ExitCode)) expect(text).toMatch(new RegExp(`[:,] ${code} `));
  });

  it("shows --config in every command's help (every command reads the provider profile)", async () => {
    const main = createTestContext({ cwd: dir });
    expect(await executeCli(["--help"], main.context)).toBe(0);
    const commands = [...main.output.stdout.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1] ?? "");
    expect(commands).toContain("plan");
    for (const command of commands.filter((name) => name !== "help")) {
      const { context, output } = createTestContext({ cwd: dir });
      expect(await executeCli([command, "--help"], context)).toBe(0);
      expect(output.stdout, command).toContain("--config <file>");
    }
  });

  it("has help on every command", async () => {
    for (const command of [
      "run",
      "resume",
      "validate",
      "plan",
      "models",
      "serve",
      "studio",
      "init",
      "cache",
      "doctor",
    ]) {
      const { context, output } = createTestContext({ cwd: dir });
      expect(await executeCli([command, "--help"], context)).toBe(0);
      expect(output.stdout).toContain(`Usage: reelsmith ${command}`);
    }
  });

  it("exits 2 on usage errors with one message", async () => {
    const cases = [
      ["run"],
      ["run", "x.yaml", "--max-videos", "zero"],
      ["frobnicate"],
      ["run", "x", "--input", "nokey"],
    ];
    for (const args of cases) {
      const { context, output } = createTestContext({ cwd: dir });
      expect(await executeCli(args, context)).toBe(2);
      expect(output.stderr).toMatch(/^error: /m);
      expect(output.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("plan shows the stages of the storyboard example and exits 2 on an invalid pipeline", async () => {
    const examples = path.resolve(import.meta.dirname, "../../../examples");
    const ok = createTestContext({ cwd: dir });
    const file = path.join(examples, "storyboard", "pipeline.yaml");
    expect(await executeCli(["plan", file, "--input", "scenes=2"], ok.context)).toBe(0);
    expect(ok.output.stdout).toContain("inputs: story=");
    expect(ok.output.stdout).toMatch(/ {2}1\. storyboard \(chat\) \| title \(chat\)/);
    expect(ok.output.stdout).toContain(
      "clips (video) fan-out × 2 over steps.storyboard.outputs.json.scenes",
    );
    const { writeFile } = await import("node:fs/promises");
    await writeFile(path.join(dir, "bad.yaml"), "name: bad\nsteps: []\nbogus: 1\n");
    const bad = createTestContext({ cwd: dir });
    expect(await executeCli(["plan", "bad.yaml"], bad.context)).toBe(2);
    expect(bad.output.stderr).toMatch(/^bad\.yaml:\d+:\d+: error: /m);
    expect(bad.output.stderr).toContain("nothing was run");
  });

  it("resume refuses a pipeline changed since the run started (exit 2)", async () => {
    const { writeFile, appendFile, readdir } = await import("node:fs/promises");
    const file = path.join(dir, "tiny.yaml");
    await writeFile(
      file,
      "name: tiny\nsteps:\n  - id: hello\n    chat:\n      model: reel-chat-1\n      prompt: Say hello.\n",
    );
    const run = createTestContext({ cwd: dir });
    expect(await executeCli(["run", "tiny.yaml"], run.context)).toBe(0);
    const [runName] = await readdir(path.join(dir, "runs"));
    await appendFile(file, "      max_tokens: 5\n");
    const resume = createTestContext({ cwd: dir });
    expect(await executeCli(["resume", `runs/${runName}`], resume.context)).toBe(2);
    expect(resume.output.stderr).toContain("the pipeline changed since the run started");
  });

  it("init writes a pipeline with the schema line and refuses to overwrite it", async () => {
    const first = createTestContext({ cwd: dir });
    expect(await executeCli(["init", "film"], first.context)).toBe(0);
    const text = await readFile(path.join(dir, "film", "pipeline.yaml"), "utf8");
    expect(text.split("\n")[0]).toMatch(
      /^# yaml-language-server: \$schema=\S*runner\/schema\/pipeline\.schema\.json$/,
    );
    expect(text).toContain("name: film");
    expect(first.output.stdout).toContain("reelsmith run film/pipeline.yaml");
    const validate = createTestContext({ cwd: dir });
    expect(await executeCli(["validate", "film/pipeline.yaml"], validate.context)).toBe(0);
    expect(validate.output.stdout).toContain("film/pipeline.yaml: ok");
    const second = createTestContext({ cwd: dir });
    expect(await executeCli(["init", "film"], second.context)).toBe(2);
    expect(second.output.stderr).toContain("film/pipeline.yaml already exists");
    expect(second.output.stderr).toContain("--force");
  });

  it("cache ls and clear work on an empty and a filled cache", async () => {
    const empty = createTestContext({ cwd: dir });
    expect(await executeCli(["cache", "ls"], empty.context)).toBe(0);
    expect(empty.output.stdout).toContain("is empty");
    const { mkdir, writeFile } = await import("node:fs/promises");
    const key = "ab12cd34ef56ab12cd34ef56";
    await mkdir(path.join(dir, ".reelsmith", "cache", "entries", "ab"), { recursive: true });
    await mkdir(path.join(dir, ".reelsmith", "cache", "blobs", "ff"), { recursive: true });
    await writeFile(path.join(dir, ".reelsmith", "cache", "blobs", "ff", "ff00"), "x".repeat(1500));
    await writeFile(
      path.join(dir, ".reelsmith", "cache", "entries", "ab", `${key}.json`),
      JSON.stringify({
        key,
        kind: "video",
        step: "clips",
        createdAt: "2026-01-01T10:00:00.000Z",
        outputs: {},
        files: { file: { path: "clips/scene-0.mp4", sha256: "ff00", bytes: 1500 } },
        summary: "reel-video-1: a fox",
      }),
    );
    const list = createTestContext({ cwd: dir });
    expect(await executeCli(["cache", "ls"], list.context)).toBe(0);
    expect(list.output.stdout).toMatch(
      /ab12cd34ef56\s+video\s+clips\s+1\.5 kB\s+2026-01-01T10:00:00Z\s+reel-video-1: a fox/,
    );
    const clear = createTestContext({ cwd: dir });
    expect(await executeCli(["cache", "clear"], clear.context)).toBe(0);
    expect(clear.output.stdout).toMatch(/removed 1 cache entry \(\d\.\d kB\)/);
    const after = createTestContext({ cwd: dir });
    await executeCli(["cache", "ls"], after.context);
    expect(after.output.stdout).toContain("is empty");
  });
});
