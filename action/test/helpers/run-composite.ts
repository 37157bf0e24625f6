import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";

/** A step of a composite action, as action.yml declares it. */
export interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  "working-directory"?: string;
}

/** action.yml, as far as these tests read it. */
export interface ActionFile {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

/** What happened to one step. */
export interface StepResult {
  step: ActionStep;
  outcome: "success" | "failure" | "skipped";
  code?: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

/** Steps that use other actions, played as GitHub would have them end. */
export type UsesOutcomes = Record<
  string,
  { outcome: "success" | "failure"; outputs?: Record<string, string> }
>;

/**
 * Parse a `$GITHUB_OUTPUT` file as the runner does: `name=value` lines and
 * `name<<DELIMITER` … `DELIMITER` blocks.
 *
 * @example
 * parseOutputFile("status=succeeded\n"); // { status: "succeeded" }
 */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name = "", delimiter] = heredoc;
      const value: string[] = [];
      for (index += 1; index < lines.length && lines[index] !== delimiter; index += 1) {
        value.push(lines[index] ?? "");
      }
      if (index >= lines.length) throw new Error(`output ${name}: no closing ${delimiter}`);
      outputs[name] = value.join("\n");
    } else if (line.includes("=")) {
      const at = line.indexOf("=");
      outputs[line.slice(0, at)] = line.slice(at + 1);
    } else if (line.trim()) {
      throw new Error(`not an output line: ${line}`);
    }
  }
  return outputs;
}

/** The subset of GitHub's expression language action.yml uses; anything else throws. */
function evaluate(expression: string, scope: Scope): string | boolean {
  const text = expression.trim();
  if (text.includes("&&")) {
    return text.split("&&").every((part) => truthy(evaluate(part, scope)));
  }
  const comparison = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(text);
  if (comparison) {
    const [, left = "", operator, right = ""] = comparison;
    const equal = String(evaluate(left, scope)) === String(evaluate(right, scope));
    return operator === "==" ? equal : !equal;
  }
  if (text === "always()") return true;
  const literal = /^'(.*)'$/.exec(text);
  if (literal) return literal[1] ?? "";
  const reference = /^(inputs|steps|github|runner)\.([\w-]+)(?:\.([\w-]+))?(?:\.([\w-]+))?$/.exec(
    text,
  );
  if (!reference) throw new Error(`expression not understood by the test: ${text}`);
  const [, root, first = "", second, third] = reference;
  if (root === "inputs") return scope.inputs[first] ?? "";
  if (root === "github" || root === "runner") {
    const value = scope.contexts[`${root}.${first}`];
    if (value === undefined) throw new Error(`no ${root}.${first} in the test`);
    return value;
  }
  const step = scope.steps[first];
  if (second === "outcome") return step?.outcome ?? "";
  if (second === "outputs" && third) return step?.outputs[third] ?? "";
  throw new Error(`expression not understood by the test: ${text}`);
}

function truthy(value: string | boolean): boolean {
  return value !== false && value !== "";
}

function runBash(
  scriptFile: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", scriptFile], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

interface Scope {
  inputs: Record<string, string>;
  steps: Record<string, { outcome: string; outputs: Record<string, string> }>;
  contexts: Record<string, string>;
}

function substitute(value: string, scope: Scope): string {
  return value.replace(/\$\{\{(.+?)\}\}/g, (_, expression: string) =>
    String(evaluate(expression, scope)),
  );
}

/**
 * Run a composite action's `run:` steps with bash as GitHub does (`bash --noprofile --norc
 * -eo pipefail`), inputs substituted into `${{ }}` expressions, step outputs passed on, and
 * the GITHUB_* files pointed at temporary files. Steps that `uses:` another action are
 * skipped unless `usesOutcomes` plays them; steps listed in `done` are taken as succeeded
 * (e.g. the install, already done in the workspace).
 *
 * @example
 * const run = runComposite({ file: "action.yml", inputs: { pipeline: "p.yaml" }, workspace });
 */
export async function runComposite(options: {
  file: string;
  inputs: Record<string, string>;
  workspace: string;
  actionPath: string;
  env?: Record<string, string>;
  done?: string[];
  usesOutcomes?: UsesOutcomes;
}): Promise<{ steps: StepResult[]; outputs: Record<string, string>; summary: string }> {
  const action = parse(readFileSync(options.file, "utf8")) as ActionFile;
  if (action.runs.using !== "composite") throw new Error("not a composite action");
  const inputs: Record<string, string> = {};
  for (const [name, declared] of Object.entries(action.inputs)) {
    const value = options.inputs[name] ?? declared.default ?? "";
    if (declared.required && !value) throw new Error(`input ${name} is required`);
    inputs[name] = value;
  }
  for (const name of Object.keys(options.inputs)) {
    if (!(name in action.inputs)) throw new Error(`action.yml has no input ${name}`);
  }
  const scratch = mkdtempSync(path.join(tmpdir(), "reelsmith-composite-"));
  const scope: Scope = {
    inputs,
    steps: {},
    contexts: {
      "github.action_path": options.actionPath,
      "github.workspace": options.workspace,
      "github.run_id": "1",
      "github.run_attempt": "1",
      "runner.os": "Linux",
      "runner.temp": scratch,
    },
  };
  const results: StepResult[] = [];
  let failed = false;
  let summary = "";
  for (const [index, step] of action.runs.steps.entries()) {
    const condition = step.if ?? "success()";
    const always = condition.includes("always()");
    const wanted = condition === "success()" ? true : truthy(evaluate(condition, scope));
    const record = (result: Omit<StepResult, "step">) => {
      results.push({ step, ...result });
      if (step.id) scope.steps[step.id] = { outcome: result.outcome, outputs: result.outputs };
      if (result.outcome === "failure") failed = true;
    };
    if ((failed && !always) || !wanted) {
      record({ outcome: "skipped", stdout: "", stderr: "", outputs: {} });
      continue;
    }
    if (step.id && options.done?.includes(step.id)) {
      record({ outcome: "success", stdout: "", stderr: "", outputs: {} });
      continue;
    }
    if (step.uses) {
      const played = step.id ? options.usesOutcomes?.[step.id] : undefined;
      record(
        played
          ? { outcome: played.outcome, stdout: "", stderr: "", outputs: played.outputs ?? {} }
          : { outcome: "skipped", stdout: "", stderr: "", outputs: {} },
      );
      continue;
    }
    if (step.shell !== "bash") throw new Error(`step ${index} must say shell: bash`);
    const outputFile = path.join(scratch, `output-${index}`);
    const summaryFile = path.join(scratch, `summary-${index}`);
    const scriptFile = path.join(scratch, `step-${index}.sh`);
    writeFileSync(outputFile, "");
    writeFileSync(summaryFile, "");
    writeFileSync(scriptFile, substitute(step.run ?? "", scope));
    const env: Record<string, string> = {
      ...options.env,
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_RUN_ATTEMPT: "1",
      RUNNER_TEMP: scratch,
    };
    for (const [name, value] of Object.entries(step.env ?? {}))
      env[name] = substitute(value, scope);
    const cwd = path.resolve(
      options.workspace,
      substitute(step["working-directory"] ?? ".", scope),
    );
    // Asynchronous: servers of the test process (a service, a webhook receiver) must answer.
    const result = await runBash(scriptFile, cwd, env);
    summary += readFileSync(summaryFile, "utf8");
    record({
      outcome: result.status === 0 ? "success" : "failure",
      code: result.status,
      stdout: result.stdout,
      stderr: result.stderr,
      outputs: parseOutputFile(readFileSync(outputFile, "utf8")),
    });
  }
  const outputs: Record<string, string> = {};
  for (const [name, declared] of Object.entries(action.outputs)) {
    outputs[name] = substitute(declared.value, scope);
  }
  return { steps: results, outputs, summary };
}
