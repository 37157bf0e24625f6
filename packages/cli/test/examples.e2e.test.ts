import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  work = await tempDir();
});
afterAll(async () => {
  await work?.remove();
});

/** Run an example offline (no service configured: the built-in simulator) and return its run dir. */
async function runExample(relative: string, args: string[] = []) {
  const result = await runCli(["run", path.join(EXAMPLES, relative), ...args], { cwd: work.dir });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  expect(result.stdout.split("\n")[0]).toMatch(
    /^no service configured .* built-in simulator at http:\/\/127\.0\.0\.1:\d+; clips are synthetic$/,
  );
  const runDir = /, directory (\S+)$/m.exec(result.stdout)?.[1];
  expect(runDir).toBeDefined();
  return { result, runDir: path.resolve(work.dir, runDir!) };
}

async function pipelineFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const example of await readdir(EXAMPLES)) {
    const dir = path.join(EXAMPLES, example);
    if (example.includes(".")) continue;
    for (const name of await readdir(dir))
      if (
        /\.ya?ml$/.test(name) &&
        !/workflow\.yml$/.test(name) &&
        !["reelsmith.config.yaml", "inputs.yaml"].includes(name)
      )
        files.push(path.join(dir, name));
  }
  return files.sort();
}

describe("examples (built CLI, offline)", () => {
  it("every example pipeline starts with the schema line and validates", async () => {
    const files = await pipelineFiles();
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const first = (await readFile(file, "utf8")).split("\n")[0];
      expect(first, file).toBe(
        "# yaml-language-server: $schema=../../packages/runner/schema/pipeline.schema.json",
      );
    }
    // real-provider's models are its provider profile's: it validates with it, the rest offline.
    const withProfile = files.filter((file) =>
      file.includes(`${path.sep}real-provider${path.sep}`),
    );
    const offline = files.filter((file) => !withProfile.includes(file));
    const result = await runCli(["validate", ...offline], { cwd: work.dir });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`0 errors, 0 warnings in ${offline.length} files`);
    const profile = path.join(EXAMPLES, "real-provider", "reelsmith.config.yaml");
    expect((await readFile(profile, "utf8")).split("\n")[0]).toBe(
      "# yaml-language-server: $schema=../../packages/core/schema/profile.schema.json",
    );
    const real = await runCli(["validate", ...withProfile, "--config", profile], {
      cwd: work.dir,
    });
    expect(real.code, real.stdout + real.stderr).toBe(0);
    expect(real.stdout).toContain(`0 errors, 0 warnings in ${withProfile.length} file`);
  });

  it("validate reports every problem of a broken pipeline as file:line:column and exits 2", async () => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(
      path.join(work.dir, "broken.yaml"),
      "name: broken\nsteps:\n  - id: clip\n    video:\n      model: reel-video-1\n      prompt: a fox\n      seconds: 30\n  - id: join\n    ffmpeg:\n      concat: ${{ steps.nope.outputs.*.file }}\n      output: final.mp4\n",
    );
    const result = await runCli(["validate", "broken.yaml"], { cwd: work.dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^broken\.yaml:7:\d+: error: .*seconds/m);
    expect(result.stdout).toMatch(/^broken\.yaml:10:\d+: error: .*nope/m);
    expect(result.stdout).toMatch(/^\s+\^$/m);
    expect(result.stderr).toContain("2 errors");
  });

  it("tool-loop: the chat step calls the command tool and the sub-pipeline tool", async () => {
    const { runDir } = await runExample("tool-loop/pipeline.yaml");
    const events = (await readFile(path.join(runDir, "events.ndjson"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; step?: string; outputs?: unknown });
    const tasks = events.find((e) => e.type === "step.end" && e.step === "tasks")?.outputs as {
      messages: { role: string; content: string }[];
    }[];
    const toolAnswers = tasks.flatMap((o) =>
      o.messages.filter((m) => m.role === "tool").map((m) => m.content),
    );
    expect(toolAnswers.some((text) => /"words":\s*\d+/.test(text))).toBe(true);
    const card = toolAnswers
      .map((text) => /"file":"([^"]+title-card\.mp4)"/.exec(text)?.[1])
      .find(Boolean);
    expect(card).toBeDefined();
    expect((await probe(card!)).duration).toBeGreaterThan(0.5);
  });

  it("providers: the narrated film from the service, fal and ElevenLabs, offline, with one total", async () => {
    const dir = path.join(EXAMPLES, "providers");
    const config = ["--config", path.join(dir, "reelsmith.config.yaml")];
    const inputs = ["--inputs", path.join(dir, "inputs.yaml")];
    const narrated = path.join(EXAMPLES, "narrated", "pipeline.yaml");
    const plan = await runCli(["plan", narrated, ...config, ...inputs], { cwd: work.dir });
    expect(plan.code, plan.stderr).toBe(0);
    // Every account states its rate: one total in credits, nothing refused or set apart.
    expect(plan.stdout).toMatch(/expected cost: at least \d+ credits/);
    expect(plan.stdout).not.toMatch(/not in credits|refused/);
    // ElevenLabs' alignment times the words: the plan counts no transcription, as the run makes none.
    expect(plan.stdout).toMatch(/speech: 3; video jobs: 3/);
    expect(plan.stdout).not.toContain("transcriptions");
    // Without fal's rate its dollars are apart: the plan says so, and the film's credit budget
    // (max_credits) is refused before anything is sent.
    const unrated = path.join(work.dir, "unrated.config.yaml");
    await writeFile(
      unrated,
      (await readFile(path.join(dir, "reelsmith.config.yaml"), "utf8")).replace(
        /\n\s+credits_per_unit: 100[^\n]*/,
        "",
      ),
    );
    const apart = await runCli(["plan", narrated, "--config", unrated, ...inputs], {
      cwd: work.dir,
    });
    expect(apart.code, apart.stderr).toBe(0);
    expect(apart.stdout).toContain(
      "and an amount in usd known at run time (fal-ai/kling-video/v2.1/standard/image-to-video, providers.fal), not in credits",
    );
    expect(apart.stdout).toContain("clips       3 × a price in usd known at run time");
    const refused = await runCli(["run", narrated, "--config", unrated, ...inputs], {
      cwd: work.dir,
    });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("credits_per_unit under providers.fal");

    const result = await runCli(
      ["run", narrated, ...config, ...inputs, "--auto-approve", "--json"],
      { cwd: work.dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain(
      "and one per provider account (fal: fal, voice: elevenlabs)",
    );
    const events = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    expect(events.at(-1)).toMatchObject({ type: "run.end", status: "succeeded" });
    // Once the scenes are known, the estimate is what the run spent: no transcription in it.
    const totals = events.at(-1)?.totals as { credits: number; estimatedCredits?: number };
    expect(totals.estimatedCredits).toBe(totals.credits);
    const start = events.find((e) => e.type === "run.start");
    expect(typeof start?.runDir).toBe("string");
    const runDir = path.resolve(work.dir, String(start?.runDir));
    const journal = await readFile(path.join(runDir, "journal.jsonl"), "utf8");
    expect(journal).toContain('"name":"speech.intent"');
    expect(journal).not.toContain('"name":"words.intent"');
    // The clips went to fal's endpoint, the voice to ElevenLabs' model, as inputs.yaml says.
    const requested = events.filter((e) => e.type === "unit.request" || e.type === "step.request");
    expect(JSON.stringify(requested)).toContain("fal-ai/kling-video/v2.1/standard/image-to-video");
    expect(JSON.stringify(requested)).toContain("eleven_multilingual_v2");
    const wide = await probe(path.join(runDir, "final-16x9.mp4"));
    const tall = await probe(path.join(runDir, "final-9x16.mp4"));
    expect([wide.width, wide.height]).toEqual([854, 480]);
    expect(tall.height).toBeGreaterThan(tall.width);
    expect(Math.abs(wide.duration - tall.duration)).toBeLessThan(0.2);
  });

  it("image-to-video: a clip from the local image, fitted to 9:16 and 1:1", async () => {
    const { runDir } = await runExample("image-to-video/pipeline.yaml");
    const source = await probe(path.join(runDir, "clip.mp4"));
    const vertical = await probe(path.join(runDir, "clip-9x16.mp4"));
    const square = await probe(path.join(runDir, "clip-1x1.mp4"));
    expect([source.width, source.height]).toEqual([854, 480]);
    expect([vertical.width, vertical.height]).toEqual([480, 854]);
    expect([square.width, square.height]).toEqual([480, 480]);
    expect(Math.abs(vertical.duration - source.duration)).toBeLessThan(0.2);
  });

  it("ci: the workflow runs on a schedule with the key from secrets, uploads the run and fails with it", async () => {
    const text = await readFile(path.join(EXAMPLES, "ci", "workflow.yml"), "utf8");
    expect(text.split("\n")[0]).toMatch(
      /^# yaml-language-server: \$schema=https:\/\/json\.schemastore\.org\/github-workflow\.json$/,
    );
    const workflow = parse(text) as {
      on: { schedule: { cron: string }[] };
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }>;
    };
    expect(workflow.on.schedule[0]?.cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    const steps = Object.values(workflow.jobs)[0]!.steps;
    // The repository's own action runs the pipeline (action.yml at the root).
    const film = steps.find((step) => step.uses === "./");
    expect(film?.with?.pipeline).toBe("examples/ci/pipeline.yaml");
    expect(film?.with?.["api-key"]).toBe("${{ secrets.REELSMITH_API_KEY }}");
    const action = parse(await readFile(path.join(EXAMPLES, "..", "action.yml"), "utf8")) as {
      runs: { steps: { id?: string; uses?: string; if?: string; with?: Record<string, string> }[] };
    };
    const upload = action.runs.steps.find((step) =>
      step.uses?.startsWith("actions/upload-artifact@"),
    );
    // uploaded even when the run failed (once the run started: there is a run to upload)
    expect(upload?.if).toMatch(/^always\(\)/);
    // what the run step says to upload: the run directory, or a batch's directory
    expect(upload?.with?.path).toBe("${{ steps.run.outputs.upload }}");
    const runDir = film?.with?.["run-dir"];
    expect(runDir).toBe("runs/nightly");

    // The pipeline the workflow runs works offline.
    const { runDir: local } = await runExample("ci/pipeline.yaml", ["--run-dir", "runs/nightly"]);
    expect(local).toBe(path.join(work.dir, "runs", "nightly"));
    expect((await probe(path.join(local, "trailer.mp4"))).duration).toBeGreaterThan(1);
  });
});
