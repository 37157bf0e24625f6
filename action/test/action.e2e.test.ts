// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipeline expressions

import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runComposite, type StepResult } from "./helpers/run-composite.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ACTION = path.join(ROOT, "action.yml");
const STORYBOARD = path.join(ROOT, "examples", "storyboard", "pipeline.yaml");
const API_KEY = "sk-action-e2e-93be1c7d";
const ARTIFACT_URL = "https://github.com/octo/films/actions/runs/1/artifacts/2";

/** The environment of a runner: no service settings of the developer's. */
function runnerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(REELSMITH_|OPENAI_|GITHUB_|INPUT_)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, NO_COLOR: "1" };
}

function stepOf(steps: StepResult[], id: string): StepResult {
  const found = steps.find((result) => result.step.id === id);
  if (!found) throw new Error(`no step ${id}`);
  return found;
}

async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(file)));
    else files.push(file);
  }
  return files;
}

let workspace = "";
beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "reelsmith-action-"));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe("action.yml, its steps run as GitHub runs them", () => {
  it("runs the storyboard on the built-in simulator, summarises it and sets the outputs", async () => {
    const run = await runComposite({
      file: ACTION,
      actionPath: ROOT,
      workspace,
      env: runnerEnv(),
      done: ["install"],
      usesOutcomes: { upload: { outcome: "success", outputs: { "artifact-url": ARTIFACT_URL } } },
      inputs: {
        pipeline: STORYBOARD,
        inputs: "scenes=2\n# a comment\nstyle=ink and wash",
        "allow-simulator": "true",
        "run-dir": "runs/nightly",
      },
    });
    const prepare = stepOf(run.steps, "prepare");
    expect(prepare.outcome).toBe("success");
    expect(prepare.outputs.service).toBe("simulator");
    expect(prepare.stdout).toMatch(/^::notice title=reelsmith::.*built-in simulator/m);
    expect(stepOf(run.steps, "doctor").outcome).toBe("success");
    const runStep = stepOf(run.steps, "run");
    expect(runStep.outcome, runStep.stderr).toBe("success");
    const runDir = path.join(workspace, "runs", "nightly");
    expect(runStep.outputs).toMatchObject({
      "exit-code": "0",
      "run-dir": runDir,
      artifact: "reelsmith-nightly",
    });
    expect(runStep.stdout).toMatch(/^✓ clips \(/m);
    expect(runStep.stdout).toMatch(/^reelsmith: run succeeded, \d+ credits$/m);
    const summaryStep = stepOf(run.steps, "summary");
    expect(summaryStep.outcome).toBe("success");

    const summary = run.summary;
    expect(summary).toMatch(/^## ✅ reelsmith: storyboard succeeded$/m);
    expect(summary).toMatch(
      /^\*\*\d+ credits\*\* spent · 0 saved · 18 estimated · \d+ tokens · 2 videos · .+ · exit code 0$/m,
    );
    expect(summary).toContain(
      "| step | status | duration | tokens | credits | saved | estimated |",
    );
    expect(summary).toMatch(
      /^\| storyboard \| succeeded \| [\d.]+ m?s \| [1-9]\d* \| 0 \| 0 \| 0 \|$/m,
    );
    expect(summary).toMatch(/^\| title \| succeeded \| [\d.]+ m?s \| [1-9]\d* \| 0 \| 0 \| 0 \|$/m);
    expect(summary).toMatch(
      /^\| clips \| succeeded 2\/2 \| [\d.]+ m?s \| 0 \| [1-9]\d* \| 0 \| 18 \|$/m,
    );
    // ffmpeg steps are paid for by nobody: nothing spent, nothing to estimate.
    expect(summary).toMatch(/^\| final \| succeeded \| [\d.]+ m?s \| 0 \| 0 \| 0 \| — \|$/m);
    expect(summary).toMatch(/^\| sheet \| succeeded \| [\d.]+ m?s \| 0 \| 0 \| 0 \| — \|$/m);
    expect(summary).toMatch(
      /^\| \*\*total\*\* \| \*\*succeeded\*\* \| .+ \| [1-9]\d* \| [1-9]\d* \| 0 \| 18 \|$/m,
    );
    expect(summary).toMatch(
      /^### Outputs\n\n\| output \| value \|\n\| --- \| --- \|\n\| title \| .+ \|$/m,
    );
    expect(summary).toMatch(/^\| video \| `runs\/nightly\/final\.mp4` \| [\d.]+ KiB \|$/m);
    expect(summary).toMatch(/^\| contact_sheet \| `runs\/nightly\/contact-sheet\.png` \| .+ \|$/m);
    expect(summary).toContain(
      `The run directory \`runs/nightly\` is uploaded as the artifact **reelsmith-nightly** ([download](${ARTIFACT_URL})).`,
    );
    expect(summary).toContain("Its report is `report.html`");

    expect(run.outputs.status).toBe("succeeded");
    expect(run.outputs["run-dir"]).toBe(runDir);
    expect(run.outputs.video).toBe(path.join(runDir, "final.mp4"));
    const video = await readFile(run.outputs.video ?? "");
    expect(video.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(run.outputs.credits).toMatch(/^[1-9]\d*$/);
    expect(run.outputs.report).toBe(path.join(runDir, "report.html"));
    expect(run.outputs.artifact).toBe("reelsmith-nightly");
    expect((await stat(path.join(workspace, ".reelsmith", "cache"))).isDirectory()).toBe(true);
  });

  describe("with a service and its key", () => {
    let simulator: Simulator;
    beforeAll(async () => {
      simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.01 });
    });
    afterAll(async () => {
      await simulator?.close();
    });

    it("summarises a failing run, fails its steps, notifies, and never shows the key", async () => {
      const received: string[] = [];
      const receiver = createServer((request, response) => {
        let body = "";
        request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        request.on("end", () => {
          received.push(`${JSON.stringify(request.headers)}\n${body}`);
          response.end("ok");
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const project = path.join(workspace, "project");
      await mkdir(project, { recursive: true });
      await writeFile(
        path.join(project, "doomed.yaml"),
        [
          "name: doomed",
          "steps:",
          "  - id: clip",
          "    video:",
          "      model: reel-video-2-lite",
          '      prompt: "a storm at sea #fail"',
          "      seconds: 2",
          "      size: 854x480",
          "      output: clip.mp4",
          "outputs:",
          "  video: ${{ steps.clip.outputs.file }}",
          "",
        ].join("\n"),
      );
      let run: Awaited<ReturnType<typeof runComposite>>;
      try {
        run = await runComposite({
          file: ACTION,
          actionPath: ROOT,
          workspace,
          env: runnerEnv(),
          done: ["install"],
          inputs: {
            pipeline: "doomed.yaml",
            "working-directory": "project",
            "base-url": simulator.url,
            "api-key": API_KEY,
            notify: hook,
            "notify-secret": "whsec-action-e2e",
            cache: "false",
          },
        });
      } finally {
        await new Promise((resolve) => receiver.close(resolve));
      }
      const prepare = stepOf(run.steps, "prepare");
      expect(prepare.stdout).toContain(`::add-mask::${API_KEY}`);
      expect(prepare.outputs.service).toMatch(/^service-[0-9a-f]{12}$/);
      const runStep = stepOf(run.steps, "run");
      expect(runStep).toMatchObject({ outcome: "failure", code: 1 });
      expect(stepOf(run.steps, "upload").outcome).toBe("skipped"); // played by GitHub, not here
      const summaryStep = stepOf(run.steps, "summary");
      expect(summaryStep).toMatchObject({ outcome: "failure", code: 1 });
      expect(run.summary).toMatch(/^## ❌ reelsmith: doomed failed$/m);
      // A failed step's figures: no tokens, nothing spent or saved, the clip's price expected.
      expect(run.summary).toMatch(/^\| clip \| failed \| .+ \| — \| — \| — \| [1-9]\d* \|$/m);
      expect(run.summary).toMatch(/^> \*\*Error\*\*.*: .+$/m);
      expect(run.summary).toContain("(not uploaded)");
      expect(run.outputs.status).toBe("failed");
      expect(run.outputs.video).toBe("");
      expect(run.outputs["run-dir"]).toMatch(/project\/runs\/\d{8}-\d{6}-doomed/);

      expect(received).toHaveLength(1);
      expect(received[0]).toContain('"status":"failed"');
      expect(received[0]).toContain("x-reelsmith-signature");

      // The key: only in the mask command, nowhere else.
      const everything = [
        ...run.steps.flatMap((step) => [
          step.stdout.replace(`::add-mask::${API_KEY}`, ""),
          step.stderr,
          JSON.stringify(step.outputs),
        ]),
        run.summary,
        ...received,
      ];
      for (const text of everything) expect(text).not.toContain(API_KEY);
      for (const file of await filesUnder(run.outputs["run-dir"] ?? "")) {
        expect((await readFile(file)).includes(API_KEY), file).toBe(false);
      }
    });
  });

  it("says why a pipeline did not run, with the CLI's message, and exits 2", async () => {
    await writeFile(
      path.join(workspace, "broken.yaml"),
      "name: broken\nsteps:\n  - id: a\n    frobnicate: {}\n",
    );
    const run = await runComposite({
      file: ACTION,
      actionPath: ROOT,
      workspace,
      env: runnerEnv(),
      done: ["install"],
      inputs: { pipeline: "broken.yaml", "allow-simulator": "true" },
    });
    expect(stepOf(run.steps, "run")).toMatchObject({ outcome: "failure", code: 2 });
    expect(stepOf(run.steps, "summary")).toMatchObject({ outcome: "failure", code: 2 });
    expect(run.summary).toMatch(/^## ❌ reelsmith: broken\.yaml did not run$/m);
    expect(run.summary).toMatch(/^```text\n[\s\S]*broken\.yaml:4:5[\s\S]*\n```$/m);
    expect(run.outputs.status).toBe("not_started");
  });

  it("reports a run stopped at an approval gate as waiting, with no clip paid", async () => {
    const run = await runComposite({
      file: ACTION,
      actionPath: ROOT,
      workspace,
      env: runnerEnv(),
      done: ["install"],
      inputs: {
        pipeline: path.join(ROOT, "examples", "storyboard", "approve.yaml"),
        inputs: "scenes=2",
        "allow-simulator": "true",
        "run-dir": "runs/gated",
      },
    });
    expect(stepOf(run.steps, "run")).toMatchObject({ outcome: "failure", code: 4 });
    expect(run.outputs.status).toBe("waiting");
    expect(run.summary).toMatch(/^## ⏸️ reelsmith: storyboard-approved is waiting for approval$/m);
    // Nothing behind the gate ran: no clip submitted, 0 credits, the clips' 18 still expected.
    expect(run.summary).toMatch(/^\| clips \| pending \| — \| — \| — \| — \| 18 \|$/m);
    expect(run.summary).toMatch(
      /^\| \*\*total\*\* \| \*\*waiting\*\* \| .+ \| \d+ \| 0 \| 0 \| 18 \|$/m,
    );
    expect(run.outputs["run-dir"]).toBe(path.join(workspace, "runs", "gated"));
  });

  it("refuses a bad inputs line before running anything", async () => {
    const run = await runComposite({
      file: ACTION,
      actionPath: ROOT,
      workspace,
      env: runnerEnv(),
      done: ["install"],
      inputs: { pipeline: STORYBOARD, inputs: "scenes=2\njust words", "allow-simulator": "true" },
    });
    const runStep = stepOf(run.steps, "run");
    expect(runStep).toMatchObject({ outcome: "failure", code: 2 });
    expect(runStep.stdout).toContain("::error title=reelsmith::line 2 of inputs is not key=value");
    expect(run.summary).toContain("line 2 of inputs is not key=value");
    expect(run.outputs.status).toBe("not_started");
  });

  it("fails at once without a service unless the simulator is allowed, running nothing", async () => {
    const run = await runComposite({
      file: ACTION,
      actionPath: ROOT,
      workspace,
      env: runnerEnv(),
      done: ["install"],
      inputs: { pipeline: STORYBOARD },
    });
    const prepare = stepOf(run.steps, "prepare");
    expect(prepare.outcome).toBe("failure");
    expect(prepare.stdout).toMatch(/^::error title=reelsmith::No service configured/m);
    for (const id of ["install", "doctor", "run", "summary"]) {
      expect(stepOf(run.steps, id).outcome).toBe("skipped");
    }
  });
});
