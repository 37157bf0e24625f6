import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI (run `pnpm build` first; turbo's `test` depends on `build`). */
export const CLI = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
/** The repository's examples folder. */
export const EXAMPLES = fileURLToPath(new URL("../../../../examples/", import.meta.url));

/** An environment without the developer's service settings. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(REELSMITH_|OPENAI_)/.test(name) || name === "CI" || name === "FORCE_COLOR") continue;
    env[name] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/** The result of a finished CLI process. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A started CLI process with its collected output. */
export interface CliProcess {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  /** Resolves when `predicate` holds for the output so far. */
  waitFor(
    predicate: (output: { stdout: string; stderr: string }) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  done: Promise<CliResult>;
}

/**
 * Start `node dist/bin.js ...args` in `cwd`.
 *
 * @example
 * const cli = startCli(["serve"], { cwd });
 * await cli.waitFor((o) => o.stdout.includes("API key"));
 */
export function startCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    output.stdout += text;
    for (const listener of listeners) listener();
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    output.stderr += text;
    for (const listener of listeners) listener();
  });
  const done = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => {
      for (const listener of listeners) listener();
      resolve({ code, signal, ...output });
    });
  });
  let exited = false;
  void done.then(() => {
    exited = true;
  });
  return {
    child,
    output,
    done,
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`timed out waiting for CLI output; got:\n${output.stdout}\n${output.stderr}`),
          );
        }, timeoutMs);
        const check = () => {
          if (predicate(output)) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve();
          } else if (exited) {
            clearTimeout(timer);
            listeners.delete(check);
            reject(
              new Error(
                `CLI exited before the expected output:\n${output.stdout}\n${output.stderr}`,
              ),
            );
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/**
 * Run the CLI to completion.
 *
 * @example
 * const { code, stdout } = await runCli(["validate", "p.yaml"], { cwd });
 */
export function runCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  return startCli(args, options).done;
}

/** A temporary working directory, removed by the returned function. */
export async function tempDir(
  prefix = "reelsmith-e2e-",
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Every file under `dir` with its contents (for greps of secrets). */
export async function readTree(dir: string): Promise<{ file: string; content: Buffer }[]> {
  const files: { file: string; content: Buffer }[] = [];
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    const info = await stat(file);
    if (info.isDirectory()) files.push(...(await readTree(file)));
    else files.push({ file, content: await readFile(file) });
  }
  return files;
}

/** True when the text holds an ANSI escape sequence. */
export function hasEscapeCodes(text: string): boolean {
  return /\u001b[[\]()#;?]*[0-9A-Za-z]?/.test(text) && text.includes("\u001b");
}

/**
 * The events a `--json` command printed, one JSON object a line.
 * @example const events = jsonEvents<{ type: string }>(result.stdout); events.at(-1)?.type // "run.end"
 */
export function jsonEvents<Event>(stdout: string): Event[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Event);
}
