import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import {
  type CliProcess,
  type CliResult,
  cleanEnv,
  runCli,
  startCli,
  tempDir,
} from "./cli-process.js";

/** What a provider's e2e test says of itself: the rest of the set-up is shared. */
export interface ProviderE2eOptions {
  /** The provider's name: `serve --dialect NAME` and the fixture folder `test/fixtures/NAME/`. */
  dialect: string;
  /** The key `serve --api-key` takes. */
  serveKey: string;
  /** The headers that carry the key to the simulator's own `/_simulator/stats`. */
  statsHeaders: () => Record<string, string>;
  /** The environment a run needs to reach the provider (its key variables), given the served URL. */
  env: (url: string) => Record<string, string>;
  /** `--time-scale` for the server (video providers: 0.01); left out when undefined. */
  timeScale?: string;
}

/** The simulator's counters, as far as the provider tests read them. */
export interface SimulatorStats {
  creditsCharged: number;
  videoJobs: { created: number; completed?: number };
  speech: { requests: number; characters: number };
  transcriptions: { requests: number };
  requests: Record<string, Record<string, number>>;
}

/** One event of `run --json`, as far as the provider tests read them. */
export interface RunEvent {
  type: string;
  status?: string;
  totals?: { credits: number };
  runDir?: string;
}

/** The sum of a request counter's values (by status). */
export const sum = (counts: Record<string, number> | undefined) =>
  Object.values(counts ?? {}).reduce((a, b) => a + b, 0);

/** A stack frame line: bad input and provider errors must never print one. */
export const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

/**
 * The shared set-up of a provider's e2e test against `reelsmith serve --dialect NAME`: its
 * fixture's profile and pipeline, a working directory, servers stopped after each test, the
 * simulator's stats, a run's JSON events, and a run killed while the server holds its submit
 * answer. Call it at the top of the test file (it registers vitest hooks).
 *
 * @example
 * const fal = providerE2e({ dialect: "fal", serveKey: KEY, statsHeaders: () => ({ authorization: `Key ${KEY}` }), env: (url) => ({ REELSMITH_BASE_URL: url, FAL_KEY: KEY }) });
 * const served = await fal.serve();
 */
export function providerE2e(options: ProviderE2eOptions) {
  const fixture = fileURLToPath(new URL(`../fixtures/${options.dialect}/`, import.meta.url));
  const profile = path.join(fixture, "reelsmith.config.yaml");
  const pipeline = path.join(fixture, "pipeline.yaml");
  const servers: CliProcess[] = [];
  let work: Awaited<ReturnType<typeof tempDir>> | undefined;
  beforeAll(async () => {
    work = await tempDir(`reelsmith-${options.dialect}-`);
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.child.kill("SIGINT");
      await server.done;
    }
  });
  afterAll(async () => {
    await work?.remove();
  });
  const dir = () => {
    if (!work) throw new Error("the working directory is made in beforeAll");
    return work.dir;
  };

  /** `reelsmith serve --dialect NAME` with the fixture's profile; stopped after the test. */
  async function serve(extra: string[] = []) {
    const args = ["serve", "--dialect", options.dialect, "--config", profile];
    if (options.timeScale !== undefined) args.push("--time-scale", options.timeScale);
    const process = startCli([...args, "--api-key", options.serveKey, ...extra], { cwd: dir() });
    servers.push(process);
    await process.waitFor((output) => output.stdout.includes("Press Ctrl-C to stop."));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(process.output.stdout)?.[1];
    if (!url) throw new Error(`no URL in:\n${process.output.stdout}`);
    return { process, url, env: cleanEnv(options.env(url)) };
  }

  /** The simulator's own counters. */
  async function stats(url: string): Promise<SimulatorStats> {
    const response = await fetch(`${url}/_simulator/stats`, { headers: options.statsHeaders() });
    expect(response.status).toBe(200);
    return (await response.json()) as SimulatorStats;
  }

  /** `reelsmith ARGS` in the working directory. */
  const cli = (args: string[], env: Record<string, string>): Promise<CliResult> =>
    runCli(args, { cwd: dir(), env });

  /** `run --json`'s events, its end event and its run directory. */
  function runOutcome(result: CliResult) {
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RunEvent);
    const start = events.find((event) => event.type === "run.start");
    return { events, end: events.at(-1), runDir: path.resolve(dir(), start?.runDir ?? "") };
  }

  /**
   * Starts a run of the fixture's pipeline and kills it (SIGKILL) once the server has made the
   * job whose answer it holds (`--faults stall@videos.create:#1:…`); the intent is journaled.
   * Gives the run's directory, to resume.
   */
  async function killWhileSubmitHeld(url: string, env: Record<string, string>): Promise<string> {
    const run = startCli(["run", pipeline, "--config", profile], { cwd: dir(), env });
    await run.waitFor((output) => /directory (\S+)/.test(output.stdout));
    // Await the server's own state, never a delay: the job is made and its answer held.
    for (;;) {
      if ((await stats(url)).videoJobs.created >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    run.child.kill("SIGKILL");
    await run.done;
    const runDir = path.resolve(dir(), /directory (\S+)/.exec(run.output.stdout)?.[1] ?? "");
    const journal = await readFile(path.join(runDir, "journal.jsonl"), "utf8");
    expect(journal).toContain("video.intent");
    return runDir;
  }

  /** Whether a file is an MP4 (its `ftyp` box). */
  async function expectMp4(file: string) {
    const bytes = await readFile(file);
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
  }

  return {
    profile,
    pipeline,
    dir,
    serve,
    stats,
    cli,
    runOutcome,
    killWhileSubmitHeld,
    expectMp4,
  };
}
