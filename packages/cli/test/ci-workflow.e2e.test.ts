// biome-ignore-all lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { EXAMPLES } from "./helpers/cli-process.js";

interface Step {
  id?: string;
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

let steps: Step[] = [];
let dir = "";
beforeAll(async () => {
  const text = await readFile(path.join(EXAMPLES, "ci", "workflow.yml"), "utf8");
  const workflow = parse(text) as { jobs: Record<string, { steps: Step[] }> };
  steps = Object.values(workflow.jobs)[0]?.steps ?? [];
  dir = await mkdtemp(path.join(tmpdir(), "reelsmith-ci-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Run the workflow's service-choice script with bash as Actions would, with these values. */
function chooseService(
  values: { baseUrl?: string; apiKey?: string; allow?: string },
  name: string,
) {
  const step = steps.find((candidate) => candidate.id === "service");
  expect(step?.env).toEqual({
    REELSMITH_BASE_URL: "${{ secrets.REELSMITH_BASE_URL }}",
    REELSMITH_API_KEY: "${{ secrets.REELSMITH_API_KEY }}",
    ALLOW_SIMULATOR: "${{ vars.REELSMITH_ALLOW_SIMULATOR }}",
  });
  const output = path.join(dir, `${name}.out`);
  // a secret or variable that is not set reaches the script as an empty string
  const result = spawnSync("bash", ["-e", "-c", step?.run ?? "exit 99"], {
    env: {
      PATH: process.env.PATH ?? "",
      GITHUB_OUTPUT: output,
      REELSMITH_BASE_URL: values.baseUrl ?? "",
      REELSMITH_API_KEY: values.apiKey ?? "",
      ALLOW_SIMULATOR: values.allow ?? "",
    },
    encoding: "utf8",
  });
  let written = "";
  try {
    written = readFileSync(output, "utf8");
  } catch {
    // nothing written
  }
  return { code: result.status, stdout: result.stdout, written };
}

describe("examples/ci/workflow.yml", () => {
  it("uses the service when both secrets are set, whatever the variable says", () => {
    for (const allow of ["", "true"]) {
      const chosen = chooseService(
        { baseUrl: "https://api.example.com", apiKey: "sk-1", allow },
        `service-${allow}`,
      );
      expect(chosen.code).toBe(0);
      expect(chosen.written.trim()).toBe("mode=service");
    }
  });

  it("fails without secrets unless the simulator is allowed, then says the clips are synthetic", () => {
    const refused = chooseService({}, "refused");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^::error::.*REELSMITH_ALLOW_SIMULATOR=true/m);
    expect(refused.written).toBe("");

    const fork = chooseService({ allow: "true" }, "fork");
    expect(fork.code).toBe(0);
    expect(fork.written.trim()).toBe("mode=simulator");
    expect(fork.stdout).toMatch(/^::notice::.*built-in simulator.*synthetic/m);
  });

  it("fails when only one of the two secrets is set, even with the simulator allowed", () => {
    const half = chooseService({ baseUrl: "https://api.example.com", allow: "true" }, "half");
    expect(half.code).toBe(1);
    expect(half.stdout).toMatch(/^::error::Only one of/m);
  });

  it("keeps simulator and service caches apart, checks with doctor, and uploads the run directory", () => {
    const names = steps.map((step) => step.id ?? step.name ?? step.uses ?? "");
    const cache = steps.find((step) => step.uses?.startsWith("actions/cache@"));
    expect(cache?.with?.key).toContain("${{ steps.service.outputs.mode }}");
    expect(cache?.with?.["restore-keys"]).toContain("${{ steps.service.outputs.mode }}");
    expect(names.indexOf("service")).toBeLessThan(steps.indexOf(cache as Step));
    const doctor = steps.findIndex((step) => /bin\.js doctor\b/.test(step.run ?? ""));
    const run = steps.findIndex((step) => step.run?.includes("examples/ci/pipeline.yaml"));
    expect(doctor).toBeGreaterThan(-1);
    expect(doctor).toBeLessThan(run);
    const upload = steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with?.path).toBe(/--run-dir (\S+)/.exec(steps[run]?.run ?? "")?.[1]);
    expect(upload?.with?.name).toContain("${{ steps.service.outputs.mode }}");
  });
});
