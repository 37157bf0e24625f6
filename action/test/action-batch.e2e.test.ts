import { existsSync } from "node:fs";
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runComposite, type StepResult } from "./helpers/run-composite.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ACTION = path.join(ROOT, "action.yml");
const STORYBOARD = path.join(ROOT, "examples", "storyboard", "pipeline.yaml");
const API_KEY = "sk-action-batch-5d1e07aa";
const ARTIFACT_URL = "https://github.com/octo/films/actions/runs/7/artifacts/9";

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

let workspace = "";
let simulator: Simulator;
beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "reelsmith-action-batch-"));
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.01, seed: 5 });
});
afterAll(async () => {
  await simulator?.close();
  await rm(workspace, { recursive: true, force: true });
});

const jobs = () => simulator.stats().videoJobs.created;

function batchAction(inputs: Record<string, string>) {
  return runComposite({
    file: ACTION,
    actionPath: ROOT,
    workspace,
    env: runnerEnv(),
    done: ["install"],
    usesOutcomes: { upload: { outcome: "success", outputs: { "artifact-url": ARTIFACT_URL } } },
    inputs: {
      pipeline: STORYBOARD,
      "base-url": simulator.url,
      "api-key": API_KEY,
      cache: "false",
      ...inputs,
    },
  });
}

describe("action.yml with inputs-file: a batch", () => {
  it("runs a row per line, writes the batch table to the summary and gives the finals", async () => {
    await writeFile(
      path.join(workspace, "stories.csv"),
      [
        "id,story,scenes,style",
        "boat,A paper boat sails down a rainy gutter.,1,ink",
        "kite,A red kite escapes over the dunes.,1,#fail",
        "train,A night train crosses a frozen bridge.,1,ink",
        "",
      ].join("\n"),
    );
    const before = jobs();
    const run = await batchAction({ "inputs-file": "stories.csv", parallel: "2" });
    const runStep = stepOf(run.steps, "run");
    // A failed row fails the job; the others still finish.
    expect(runStep, runStep.stderr).toMatchObject({ outcome: "failure", code: 1 });
    const batchDir = runStep.outputs["batch-dir"] ?? "";
    expect(batchDir).toMatch(/\/runs\/\d{8}-\d{6}-storyboard-batch$/);
    expect(runStep.outputs.upload).toBe(batchDir);
    expect(runStep.outputs.artifact).toBe(`reelsmith-${path.basename(batchDir)}`);
    expect(runStep.stdout).toMatch(/^reelsmith: batch storyboard-batch started in .+, 3 rows$/m);
    expect(runStep.stdout).toMatch(/^✓ row boat succeeded \(\d+ credits, .+\)$/m);
    expect(runStep.stdout).toMatch(/^✗ row kite failed \(\d+ credits, .+\): .+$/m);
    // One line per row, not one per step of every row.
    expect(runStep.stdout).not.toMatch(/^✓ clips/m);
    expect(stepOf(run.steps, "summary")).toMatchObject({ outcome: "failure", code: 1 });

    expect(run.summary).toMatch(/^## ❌ reelsmith batch storyboard-batch: rows failed$/m);
    expect(run.summary).toMatch(
      /^\*\*\d+ credits\*\* spent · 27 estimated for the rows run · 3 rows · 2 succeeded · 1 failed · .+ · exit code 1$/m,
    );
    expect(run.summary).toContain("| row | status | credits | duration | final |");
    const relative = path.relative(workspace, batchDir);
    const tableRow = (id: string, line: number) =>
      new RegExp(
        `^\\| ${id} \\(line ${line}\\) \\| succeeded \\| [1-9]\\d* \\| [\\d.]+ m?s \\| \`${relative}/rows/${id}/final\\.mp4\` \\|$`,
        "m",
      );
    expect(run.summary).toMatch(tableRow("boat", 2));
    expect(run.summary).toMatch(tableRow("train", 4));
    expect(run.summary).toMatch(/^\| kite \(line 3\) \| failed: .+ \| \d+ \| .+ \| — \|$/m);
    expect(run.summary).toContain(
      `The batch directory \`${relative}\` is uploaded as the artifact **reelsmith-${path.basename(batchDir)}** ([download](${ARTIFACT_URL}))`,
    );
    expect(run.summary).toContain("Its report is `batch.html`");

    expect(run.outputs.status).toBe("failed");
    expect(run.outputs["batch-dir"]).toBe(batchDir);
    const finals = (run.outputs.finals ?? "").split("\n");
    expect(finals).toEqual([
      path.join(batchDir, "rows", "boat", "final.mp4"),
      path.join(batchDir, "rows", "train", "final.mp4"),
    ]);
    for (const final of finals) {
      expect((await readFile(final)).subarray(4, 8).toString("latin1")).toBe("ftyp");
    }
    expect(run.outputs.report).toBe(path.join(batchDir, "batch.html"));
    expect(Number(run.outputs.credits)).toBeGreaterThan(0);
    // A clip for each good row, and the failing row's tries.
    expect(jobs() - before).toBeGreaterThanOrEqual(3);
    for (const text of [run.summary, ...run.steps.map((step) => step.stderr)]) {
      expect(text).not.toContain(API_KEY);
    }

    // A later job finishes the batch it was given (as from a cancelled job's artifact): the
    // finished rows are neither redone nor repaid, the failed row is tried again, and a row
    // added to the file runs.
    await appendFile(path.join(workspace, "stories.csv"), "gull,A keeper feeds a gull.,1,ink\n");
    const resumed = await batchAction({ "inputs-file": "stories.csv", resume: relative });
    const resumeStep = stepOf(resumed.steps, "run");
    expect(resumeStep, resumeStep.stderr).toMatchObject({ outcome: "failure", code: 1 });
    expect(resumeStep.outputs["batch-dir"]).toBe(batchDir);
    expect(resumeStep.stdout).toMatch(/^reelsmith: batch storyboard-batch resumed in .+, 4 rows$/m);
    expect(resumeStep.stdout).toMatch(/^✓ row gull succeeded/m);
    expect(resumeStep.stdout).toMatch(/^✗ row kite failed/m);
    expect(resumeStep.stdout).not.toMatch(/row (boat|train)/);
    expect(resumed.summary).toMatch(/^\| gull \(line 5\) \| succeeded \| .+ \|$/m);
    expect(resumed.summary).toMatch(tableRow("boat", 2));
    expect(resumed.outputs.status).toBe("failed");
    expect((resumed.outputs.finals ?? "").split("\n")).toEqual([
      ...finals,
      path.join(batchDir, "rows", "gull", "final.mp4"),
    ]);
  });

  it("starts the batch when the resume directory holds none (nothing was left behind)", async () => {
    await writeFile(
      path.join(workspace, "one.jsonl"),
      '{"id":"fox","story":"A fox naps.","scenes":1}\n',
    );
    const before = jobs();
    const run = await batchAction({ "inputs-file": "one.jsonl", resume: "leftover" });
    expect(stepOf(run.steps, "run")).toMatchObject({ outcome: "success", code: 0 });
    expect(jobs() - before).toBe(1);
    expect(run.outputs.status).toBe("succeeded");
    expect(existsSync(run.outputs.finals ?? "")).toBe(true);
  });

  it("refuses a batch with per-run inputs, and a resume directory without a batch or a file", async () => {
    const both = await batchAction({ "inputs-file": "one.jsonl", inputs: "scenes=2" });
    expect(stepOf(both.steps, "run")).toMatchObject({ outcome: "failure", code: 2 });
    expect(both.summary).toContain("inputs and inputs-file do not go together");
    const nothing = await batchAction({ resume: "leftover" });
    expect(stepOf(nothing.steps, "run")).toMatchObject({ outcome: "failure", code: 2 });
    expect(nothing.summary).toContain("resume names leftover, which holds no batch");
    expect(nothing.outputs.status).toBe("not_started");
  });
});
