import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-retake-key-0123456789";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function events(stdout: string): { type: string; [key: string]: unknown }[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { type: string });
}

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
let runDir: string;
const connection = () => ["--base-url", simulator.url, "--api-key", API_KEY];
const clip = (name: string) => path.join(runDir, "clips", name);

beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.01, seed: 3 });
  work = await tempDir();
  const run = await runCli(["run", STORYBOARD, "--input", "scenes=3", "--json", ...connection()], {
    cwd: work.dir,
  });
  expect(run.code).toBe(0);
  runDir = String(events(run.stdout).find((e) => e.type === "run.start")?.runDir);
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

describe("reelsmith retake and pick (built CLI)", () => {
  it("retake makes one new job for the item and rebuilds the film; pick puts take 1 back for free", async () => {
    expect(simulator.stats().videoJobs.created).toBe(3);
    const firstFilm = sha(path.join(runDir, "final.mp4"));
    const takeOne = sha(clip("scene-1.mp4"));
    const retake = await runCli(
      [
        "retake",
        runDir,
        "--step",
        "clips",
        "--item",
        "1",
        "--prompt",
        "A paper boat caught in a summer storm",
        "--json",
        ...connection(),
      ],
      { cwd: work.dir },
    );
    // With --json, stdout is events only; the note on how to go back is on stderr.
    expect(retake.stderr).toMatch(
      /^every take is kept; put one back with: reelsmith pick \S+ --step clips --item 1 --take N\n$/,
    );
    expect(retake.code).toBe(0);
    const seen = events(retake.stdout);
    expect(seen.at(-1)).toMatchObject({ type: "run.end", status: "succeeded" });
    expect(seen.filter((e) => e.type === "unit.progress" && e.stage === "submitted")).toHaveLength(
      1,
    );
    expect(simulator.stats().videoJobs.created).toBe(4);
    expect(sha(clip("scene-1.take-1.mp4"))).toBe(takeOne);
    expect(sha(clip("scene-1.take-2.mp4"))).toBe(sha(clip("scene-1.mp4")));
    expect(sha(path.join(runDir, "final.mp4"))).not.toBe(firstFilm);
    // The table's spent figure is the ledger's: it agrees with what the service charged.
    const end = seen.at(-1) as unknown as { totals: { credits: number } };
    expect(end.totals.credits).toBe(simulator.stats().creditsCharged);

    const pick = await runCli(["pick", runDir, "--step", "clips", "--item", "1", "--take", "1"], {
      cwd: work.dir,
    });
    expect(pick.code).toBe(0);
    expect(`${pick.stdout}${pick.stderr}`).toContain("take 1 of `clips` #1 is picked (was take 2)");
    expect(simulator.stats().videoJobs.created).toBe(4);
    expect(sha(clip("scene-1.mp4"))).toBe(takeOne);
    expect(sha(path.join(runDir, "final.mp4"))).toBe(firstFilm);
    // The report shows both takes of the card.
    const report = readFileSync(path.join(runDir, "report.html"), "utf8");
    expect(report).toContain("A paper boat caught in a summer storm");
  });

  it("a retake is priced as paid whatever the cache holds: its estimate is what it spends", async () => {
    const before = simulator.stats().creditsCharged;
    // The same request as the clip's first take: the cache holds it, but a take is new.
    const retake = await runCli(
      ["retake", runDir, "--step", "clips", "--item", "2", "--json", ...connection()],
      { cwd: work.dir },
    );
    expect(retake.code, retake.stderr).toBe(0);
    const spent = simulator.stats().creditsCharged - before;
    expect(spent).toBeGreaterThan(0);
    const estimates = events(retake.stdout).filter((e) => e.type === "run.estimate");
    expect(estimates.length).toBeGreaterThan(0);
    for (const event of estimates) {
      expect(event).toMatchObject({ of: "take", estimate: { credits: spent, complete: true } });
      expect(JSON.stringify(event)).not.toContain('"cached"');
    }
  });

  it("refuses a bad step, item or take with exit 2, a clear message and nothing changed", async () => {
    const journal = readFileSync(path.join(runDir, "journal.jsonl"));
    const jobs = simulator.stats().videoJobs.created;
    const cases: [string[], RegExp][] = [
      [
        ["retake", runDir, "--step", "clipz", "--item", "1"],
        /has no step `clipz`; did you mean `clips`\? \(its steps: /,
      ],
      [
        ["retake", runDir, "--step", "clips", "--item", "9"],
        /`clips` has items 0–2; there is no item 9/,
      ],
      [["retake", runDir, "--step", "clips"], /say which with --item N \(items 0–2\)/],
      [["retake", runDir, "--step", "final", "--item", "0"], /`final` has no `for_each`/],
      [["retake", runDir, "--step", "clips", "--item", "x"], /--item.*expected a whole number/],
      [["pick", runDir, "--step", "clips", "--item", "1", "--take", "7"], /there is no take 7/],
      [["pick", runDir, "--step", "clips", "--item", "0", "--take", "2"], /has one take \(1\)/],
      [
        ["retake", runDir, "--step", "clips", "--item", "1", "--database", "postgres://u@h/db"],
        /--database is not supported/,
      ],
      [
        ["retake", path.join(work.dir, "runs", "nope"), "--step", "clips", "--item", "1"],
        /does not exist/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCli([...args, ...connection()], { cwd: work.dir });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toMatch(/^error: /);
      // No stack trace, and no pipeline position: the flags are what is wrong.
      expect(result.stderr).not.toMatch(/\n\s+at |\.ya?ml:\d+/);
      expect(result.stdout).toBe("");
    }
    expect(readFileSync(path.join(runDir, "journal.jsonl"))).toEqual(journal);
    expect(simulator.stats().videoJobs.created).toBe(jobs);
    expect(existsSync(clip("scene-0.take-1.mp4"))).toBe(false);
  });

  it("a retake reads the run's journal once: its checks, its service and its take share it (and its report once)", async () => {
    const counts = path.join(work.dir, "journal-reads.txt");
    const retake = await runCli(
      [
        "retake",
        runDir,
        "--step",
        "clips",
        "--item",
        "2",
        "--seed",
        "11",
        "--json",
        ...connection(),
      ],
      {
        cwd: work.dir,
        env: {
          NODE_OPTIONS: `--require ${path.join(import.meta.dirname, "fixtures", "count-reads", "count-journal-reads.cjs")}`,
          COUNT_READS_FILE: counts,
        },
      },
    );
    expect(retake.stderr).toMatch(/every take is kept/);
    expect(retake.code).toBe(0);
    // One line per read, naming the package that asked for it: the take's (its checks, its
    // service, its run) is the CLI's one opening; the report's comes after the run has ended.
    const readers = readFileSync(counts, "utf8").split("\n").filter(Boolean);
    expect(readers).toEqual(["cli", "report"]);
  });
});
