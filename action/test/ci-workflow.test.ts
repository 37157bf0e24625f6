// biome-ignore-all lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { ActionFile, ActionStep } from "./helpers/run-composite.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Workflow {
  name: string;
  on: { schedule?: { cron: string }[]; workflow_dispatch?: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, { "runs-on": string; steps: ActionStep[] }>;
}

describe("examples/ci/workflow.yml", () => {
  it("is a scheduled workflow that runs the pipeline with this repository's action", async () => {
    const workflow = parse(
      await readFile(path.join(ROOT, "examples", "ci", "workflow.yml"), "utf8"),
    ) as Workflow;
    const action = parse(await readFile(path.join(ROOT, "action.yml"), "utf8")) as ActionFile;
    expect(workflow.on.schedule?.[0]?.cron).toMatch(/^(\S+ ){4}\S+$/);
    expect(workflow.on).toHaveProperty("workflow_dispatch");
    expect(workflow.permissions).toEqual({ contents: "read" });
    const [job] = Object.values(workflow.jobs);
    expect(job?.["runs-on"]).toBe("ubuntu-latest");
    const steps = job?.steps ?? [];
    expect(steps[0]?.uses).toMatch(/^actions\/checkout@v\d+$/);
    const trailer = steps.find((step) => step.uses === "./");
    expect(trailer).toBeDefined();
    const inputs = trailer?.with ?? {};
    // Every input given exists in action.yml, and every required one is given.
    for (const name of Object.keys(inputs)) expect(action.inputs).toHaveProperty(name);
    for (const [name, declared] of Object.entries(action.inputs)) {
      if (declared.required) expect(inputs).toHaveProperty(name);
    }
    expect(inputs.pipeline).toBe("examples/ci/pipeline.yaml");
    await expect(readFile(path.join(ROOT, inputs.pipeline ?? ""), "utf8")).resolves.toContain(
      "name: nightly-trailer",
    );
    // Secrets reach the action from secrets only; the simulator only when the variable says so.
    expect(inputs["api-key"]).toBe("${{ secrets.REELSMITH_API_KEY }}");
    expect(inputs["base-url"]).toBe("${{ secrets.REELSMITH_BASE_URL }}");
    expect(inputs["notify-secret"]).toBe("${{ secrets.REELSMITH_NOTIFY_SECRET }}");
    expect(inputs["allow-simulator"]).toBe("${{ vars.REELSMITH_ALLOW_SIMULATOR == 'true' }}");
    expect(inputs.inputs).toMatch(/^headline=.+\n$/);
    // A later step reads the outputs the action declares, through env (never in the script).
    const after = steps.slice(steps.indexOf(trailer as ActionStep) + 1);
    for (const step of after) {
      expect(step.run ?? "").not.toContain("${{");
      for (const value of Object.values(step.env ?? {})) {
        const output = /steps\.trailer\.outputs\.([\w-]+)/.exec(value)?.[1];
        if (output) expect(action.outputs).toHaveProperty(output);
      }
    }
  });

  it("the action's scripts never splice an input into a script's text", async () => {
    const action = parse(await readFile(path.join(ROOT, "action.yml"), "utf8")) as ActionFile;
    for (const step of action.runs.steps) {
      if (step.run) expect(step.run).not.toMatch(/\$\{\{/);
    }
  });
});

describe("examples/ci/batch-workflow.yml", () => {
  it("makes the day's films from a file in the repository and finishes a cancelled run's batch", async () => {
    const text = await readFile(path.join(ROOT, "examples", "ci", "batch-workflow.yml"), "utf8");
    const workflow = parse(text) as Workflow;
    const action = parse(await readFile(path.join(ROOT, "action.yml"), "utf8")) as ActionFile;
    expect(workflow.on.schedule?.[0]?.cron).toMatch(/^(\S+ ){4}\S+$/);
    expect(workflow.on).toHaveProperty("workflow_dispatch");
    expect(workflow.permissions).toEqual({ contents: "read", actions: "read" });
    const steps = Object.values(workflow.jobs)[0]?.steps ?? [];
    expect(steps[0]?.uses).toMatch(/^actions\/checkout@v\d+$/);
    for (const step of steps) expect(step.run ?? "").not.toContain("${{");
    // The previous run, when it was cancelled, gives its batch directory back.
    const download = steps.find((step) => step.uses?.startsWith("actions/download-artifact@"));
    expect(download?.with?.["run-id"]).toBe("${{ steps.left.outputs.run-id }}");
    const films = steps.find((step) => step.uses === "./");
    const inputs = films?.with ?? {};
    for (const name of Object.keys(inputs)) expect(action.inputs).toHaveProperty(name);
    // It is finished in place, and uploaded again under the name the next run downloads.
    expect(inputs.resume).toBe(download?.with?.path);
    expect(inputs["artifact-name"]).toBe(download?.with?.name);
    expect(inputs["api-key"]).toBe("${{ secrets.REELSMITH_API_KEY }}");
    for (const step of steps.slice(steps.indexOf(films as ActionStep) + 1)) {
      for (const value of Object.values(step.env ?? {})) {
        const output = /steps\.films\.outputs\.([\w-]+)/.exec(value)?.[1];
        if (output) expect(action.outputs).toHaveProperty(output);
      }
    }
    // The rows fit the pipeline: the built CLI plans the batch without a service.
    const plan = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "packages", "cli", "dist", "bin.js"),
        "batch",
        inputs.pipeline ?? "",
        "--inputs",
        inputs["inputs-file"] ?? "",
        "--plan",
        "--no-service",
      ],
      { cwd: ROOT, encoding: "utf8", env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" } },
    );
    expect(plan.status, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^total: [1-9]\d* credits for 3 rows$/m);
    // The README shows this very workflow.
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(text.slice(text.indexOf("name: daily films")));
  });
});
