import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { locateFfmpeg } from "@reelsmith/media";
import { startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "../src/__fixtures__/test-context.js";
import { executeCli } from "../src/program.js";
import { EXAMPLES, tempDir } from "./helpers/cli-process.js";

// The mistakes of a first hour with reelsmith: each gets one clear message, exit 2, no
// stack trace, and nothing is sent.

let work: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  work = await tempDir("reelsmith-first-hour-");
});
afterAll(async () => {
  await work?.remove();
});

/** The command's exit code and everything it wrote (validate lists problems on stdout). */
async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; all: string }> {
  const { context, output } = createTestContext({ cwd: work.dir, env });
  const code = await executeCli(args, context);
  return { code, all: `${output.stdout}${output.stderr}` };
}

const STACK = /\n\s+at .+:\d+:\d+\)?\n/;

describe("a first hour's mistakes", () => {
  it("a pipeline file that is not there: its full path and what to do, once", async () => {
    for (const command of ["run", "plan", "validate"]) {
      const { code, all } = await cli([command, "storyboard.yaml"]);
      expect(code, command).toBe(2);
      expect(all, command).toContain(
        `storyboard.yaml:1:1: error: cannot read pipeline: no such file (${path.join(work.dir, "storyboard.yaml")})`,
      );
      expect(all, command).toContain("hint: check the path");
      expect(all, command).not.toContain("reelsmith validate checks without running");
      expect(all, command).not.toMatch(STACK);
    }
  });

  it("a misspelt step kind: one error at the key, naming the kind meant", async () => {
    await writeFile(
      path.join(work.dir, "typo.yaml"),
      "name: typo\nsteps:\n  - id: story\n    chatt:\n      model: reel-chat-1\n      prompt: hello\n",
    );
    const { code, all } = await cli(["run", "typo.yaml"]);
    expect(code).toBe(2);
    expect(all).toContain(
      "typo.yaml:4:5: error: step `story` has no kind: `chatt` is not one; did you mean `chat`?",
    );
    expect(all.match(/: error: /g)).toHaveLength(1);
    expect(all).toContain("typo.yaml has 1 error; nothing was run");
  });

  it("a folder given for a pipeline: says so", async () => {
    await mkdir(path.join(work.dir, "films"), { recursive: true });
    const { code, all } = await cli(["validate", "films"]);
    expect(code).toBe(2);
    expect(all).toContain("films:1:1: error: cannot read pipeline: not a regular file");
    expect(all).not.toMatch(STACK);
  });

  it("a run directory that is not there: named, and no command blamed for another's verb", async () => {
    const missing = path.join(work.dir, "runs", "20260101-000000-storyboard");
    for (const args of [
      ["resume", missing],
      ["retake", missing, "--step", "clips"],
      ["pick", missing, "--step", "clips", "--take", "1"],
      ["approve", missing],
    ]) {
      const { code, all } = await cli(args);
      expect(code, args[0]).toBe(2);
      expect(all, args[0]).toContain(`error: ${missing}: it does not exist (not_a_run)`);
      expect(all, args[0]).not.toMatch(/Cannot resume/i);
      expect(all, args[0]).not.toMatch(STACK);
    }
    const report = await cli(["report", "runs/nope"]);
    expect(report.code).toBe(2);
    expect(report.all).toContain("error: runs/nope does not exist (not_a_run_directory)");
  });

  it("a number of scenes below the input's minimum: refused by plan and run, nothing sent", async () => {
    const simulator = await startSimulator({ timeScale: 0.01 });
    try {
      const pipeline = path.join(EXAMPLES, "storyboard/pipeline.yaml");
      const service = {
        REELSMITH_BASE_URL: simulator.url,
        REELSMITH_API_KEY: simulator.apiKey,
      };
      for (const command of ["plan", "run"]) {
        for (const scenes of ["0", "-2"]) {
          const { code, all } = await cli(
            [command, pipeline, "--input", `scenes=${scenes}`],
            service,
          );
          expect(code, `${command} scenes=${scenes}`).toBe(2);
          expect(all).toContain(
            `error: input scenes: expected an integer of at least 1, got ${scenes} (invalid_inputs)`,
          );
        }
      }
      // Only the free model list was read: no chat, no clip.
      const { "GET /v1/models": _models, ...paid } = simulator.stats().requests;
      expect(paid).toEqual({});
      expect(simulator.stats().chatCompletions).toBe(0);
    } finally {
      await simulator.close();
    }
  });

  it("a step that failed on a missing file: the way on is said, and resume takes it", async () => {
    const folder = path.join(work.dir, "join");
    await mkdir(folder, { recursive: true });
    const pipeline = path.join(folder, "pipeline.yaml");
    // Named literally, a video no step writes is refused before the run starts.
    await writeFile(
      pipeline,
      "name: join\nsteps:\n  - id: joined\n    ffmpeg: { concat: [intro.mp4, intro.mp4], output: joined.mp4 }\n",
    );
    const refused = await cli(["run", pipeline, "--run-dir", "runs/join"]);
    expect(refused.code).toBe(2);
    expect(refused.all).toContain(
      `${path.join("join", "pipeline.yaml")}:4:24: error: video not found: intro.mp4`,
    );
    expect(refused.all).toContain("no step of this pipeline writes this one");
    // Named by an input, it is known at run time only: the step fails then.
    await writeFile(
      pipeline,
      'name: join\ninputs:\n  intro: { type: string, default: intro.mp4 }\nsteps:\n  - id: joined\n    ffmpeg: { concat: ["${{ inputs.intro }}", "${{ inputs.intro }}"], output: joined.mp4 }\n',
    );
    const first = await cli(["run", pipeline, "--run-dir", "runs/join"]);
    expect(first.code).toBe(1);
    expect(first.all).toContain(
      `once the cause is fixed, retry the rest with: reelsmith resume runs/join (after changing the pipeline file, run it again instead: the cache serves what was already made)`,
    );
    // The cause fixed (the file put in place), resume finishes the run.
    const { ffmpeg } = await locateFfmpeg();
    await new Promise<void>((resolve, reject) =>
      execFile(
        ffmpeg.path,
        [
          ...["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=24:d=1"],
          ...["-c:v", "libx264", "-pix_fmt", "yuv420p", path.join(folder, "intro.mp4")],
        ],
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    const resumed = await cli(["resume", "runs/join"]);
    expect(resumed.code, resumed.all).toBe(0);
    // `status` is for the shared database's runs: given this run, it names the commands for it.
    const status = await cli(["status", "runs/join"]);
    expect(status.code).toBe(2);
    expect(status.all).toContain(
      "error: status is for runs in the shared database; runs/join is a run directory",
    );
    expect(status.all).toContain("reelsmith report runs/join rebuilds its report.html");
    expect(status.all).not.toMatch(STACK);
  }, 120_000);

  it("serve with a fault spec it cannot read: a usage error (exit 2), with the form to write", async () => {
    const { code, all } = await cli(["serve", "--faults", "bogus"]);
    expect(code).toBe(2);
    expect(all).toContain("error: Expected a fault entry like 429@chat:0.3");
    expect(all).not.toContain("--debug");
  });

  it("a --config file that is not there: its full path and what to do, once", async () => {
    const { code, all } = await cli(["validate", "typo.yaml", "--config", "reelsmith.yaml"]);
    expect(code).toBe(2);
    expect(all).toContain(
      `reelsmith.yaml:1:1: error: cannot read the provider profile: no such file (${path.join(work.dir, "reelsmith.yaml")})`,
    );
    expect(all).toContain("hint: check the path given with --config or REELSMITH_CONFIG");
    expect(all).not.toContain("fix the problems above");
  });
});
