import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readJournal } from "../../src/journal/journal.js";
import type { TestService } from "./simulator.js";

/**
 * Runs a fixture script (`test/fixtures/crash-*.mjs PIPELINE RUN_DIR CACHE_DIR`) in a process
 * of its own against `baseURL` (default: the test service's simulator), to be killed with
 * `kill()` (SIGKILL) at a state the test waits for.
 * @example const run = startCrashRun(service, "crash-run.mjs", pipeline, runDir); await until(…); await run.kill();
 */
export function startCrashRun(
  service: TestService,
  script: string,
  pipeline: string,
  runDir: string,
  baseURL = service.simulator.url,
): { kill(): Promise<void> } {
  const child = spawn(
    process.execPath,
    [
      join(import.meta.dirname, "..", "fixtures", script),
      pipeline,
      runDir,
      join(service.root, "cache"),
    ],
    {
      env: {
        ...process.env,
        REELSMITH_BASE_URL: baseURL,
        REELSMITH_API_KEY: service.simulator.apiKey,
      },
      stdio: "ignore",
    },
  );
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * The facts of one name a run directory's journal holds so far (none before it exists).
 * @example journaledFacts(runDir, "video.intent").length
 */
export function journaledFacts(runDir: string, name: string): Record<string, unknown>[] {
  const file = join(runDir, "journal.jsonl");
  if (!existsSync(file)) return [];
  return readJournal(file).filter((r) => r.type === "fact" && r.name === name) as Record<
    string,
    unknown
  >[];
}

/**
 * Waits for a state of the run or of the service (never for an amount of time; the test's
 * own timeout bounds it).
 * @example await until(() => service.simulator.stats().faultsInjected.stall >= 1);
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
