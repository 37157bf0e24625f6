import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, startCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-closed-output-key-7777";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.5 });
});
afterAll(async () => {
  await simulator?.close();
});

interface LedgerLine {
  type: string;
  totals?: { credits?: number; jobsSubmitted?: number };
}

/**
 * Run the storyboard with `flags`, read stdout until `enough` holds, then close the reading
 * end of the pipe (as `| head -2` does), and let the process end by itself.
 */
async function runAndCloseStdout(flags: string[], enough: (stdout: string) => boolean) {
  const work = await tempDir();
  const before = simulator.stats();
  try {
    const run = startCli(
      [
        "run",
        STORYBOARD,
        "--input",
        "scenes=6",
        "--max-videos",
        "2",
        "--no-cache",
        "--base-url",
        simulator.url,
        "--api-key",
        API_KEY,
        ...flags,
      ],
      { cwd: work.dir },
    );
    await run.waitFor((output) => enough(output.stdout), 60_000);
    run.child.stdout?.destroy();
    const result = await run.done;
    const [name] = await readdir(path.join(work.dir, "runs"));
    const runDir = path.join(work.dir, "runs", String(name));
    const record = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8")) as {
      status: string;
    };
    const journal = (await readFile(path.join(runDir, "journal.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LedgerLine);
    const ledger = journal.filter((line) => line.type === "ledger");
    const after = simulator.stats();
    return {
      result,
      status: record.status,
      lock: existsSync(path.join(runDir, "run.lock")),
      report: existsSync(path.join(runDir, "report.html")),
      lastRecord: journal.at(-1)?.type,
      jobsInLedger: ledger.reduce((sum, line) => sum + (line.totals?.jobsSubmitted ?? 0), 0),
      creditsInLedger: ledger.reduce((sum, line) => sum + (line.totals?.credits ?? 0), 0),
      jobsAtService: after.videoJobs.created - before.videoJobs.created,
      creditsAtService: after.creditsCharged - before.creditsCharged,
      inFlight: after.jobsInFlight,
    };
  } finally {
    await work.remove();
  }
}

const lines = (count: number) => (stdout: string) => stdout.split("\n").length > count;

describe("a reader that closes stdout early (built CLI)", () => {
  it.each([
    ["--json, closed after 2 lines", ["--json"], lines(2)],
    ["plain, closed after 2 lines", [], lines(2)],
    [
      "--json, closed after a job was submitted",
      ["--json"],
      (out: string) => out.includes('"stage":"submitted"'),
    ],
    [
      "plain, closed after a job was submitted",
      [],
      (out: string) => /video job \S+ submitted/.test(out),
    ],
  ])(
    "%s: stops as on Ctrl-C, exit 130, the run ended and journaled, nothing paid and lost",
    async (_name, flags, enough) => {
      const run = await runAndCloseStdout(flags, enough);
      expect(run.result.code, run.result.stderr).toBe(130);
      expect(run.result.stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(run.result.stderr).toContain("the output was closed: stopping as on Ctrl-C");
      expect(run.result.stderr).toMatch(/Continue with: reelsmith resume runs\/\S+/);
      // The words the terminal prints are the run's own: run.json says cancelled, so does it.
      expect(run.result.stderr).toContain("cancelled (its output was closed); nothing finished");
      expect(run.result.stderr).not.toContain("interrupted");
      expect(run.status).toBe("cancelled");
      expect(run.lock).toBe(false);
      expect(run.lastRecord).toBe("run.end");
      expect(run.report).toBe(true);
      // Every job the service took is in the ledger, waited for and paid once: none lost.
      expect(run.jobsInLedger).toBe(run.jobsAtService);
      expect(run.creditsInLedger).toBe(run.creditsAtService);
      expect(run.jobsAtService).toBeLessThan(6);
      expect(run.inFlight).toBe(0);
    },
  );

  it("--on-closed-output continue takes the run to its end, writing nothing more to stdout", async () => {
    const run = await runAndCloseStdout(["--on-closed-output", "continue"], lines(2));
    expect(run.result.code, run.result.stderr).toBe(0);
    expect(run.result.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(run.result.stderr).toContain("the output was closed: going on to the end");
    expect(run.status).toBe("succeeded");
    expect(run.lock).toBe(false);
    expect(run.lastRecord).toBe("run.end");
    expect(run.report).toBe(true);
    expect(run.jobsAtService).toBe(6);
    expect(run.jobsInLedger).toBe(6);
  });
});
