// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../../report/test/helpers/browser.js";
import { cleanEnv, EXAMPLES, runCli, startCli, tempDir } from "./helpers/cli-process.js";

const API_KEY = "sk-e2e-money-key-31337";
const STORYBOARD = path.join(EXAMPLES, "storyboard", "pipeline.yaml");
const TOOL_LOOP = path.join(EXAMPLES, "tool-loop", "pipeline.yaml");

interface Totals {
  credits: number;
  savedCredits: number;
  jobsSubmitted: number;
  jobsReattached: number;
  jobsCached: number;
  totalTokens: number;
}

/** The storyboard example with its scenes unbounded (only `minItems: 1`): N known at run time. */
async function unboundedStoryboard(): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(STORYBOARD, "utf8");
  return text
    .replace("minItems: ${{ inputs.scenes }}", "minItems: 1")
    .replace(/^\s*maxItems: \$\{\{ inputs\.scenes \}\}\n/m, "")
    .replace("../../packages", path.join(EXAMPLES, "..", "packages"));
}

/** The NDJSON events of `--json`. */
function events(stdout: string): { type: string; [field: string]: unknown }[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

function runEnd(stdout: string): { status: string; totals: Totals } {
  const end = events(stdout).find((event) => event.type === "run.end");
  if (!end) throw new Error(`no run.end in:\n${stdout}`);
  return end as unknown as { status: string; totals: Totals };
}

function runDirOf(stdout: string): string {
  const start = events(stdout).find((event) => event.type === "run.start");
  return String(start?.runDir);
}

/** The figures of the summary table's total row: tokens, spent, saved ("-" is 0). */
function totalRow(stdout: string): { tokens: number; spent: number; saved: number } {
  const row = /^total\s+\S+\s+\S+\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(stdout);
  if (!row) throw new Error(`no total row in:\n${stdout}`);
  const figure = (text: string | undefined) => (text === "-" ? 0 : Number(text));
  return { tokens: figure(row[1]), spent: figure(row[2]), saved: figure(row[3]) };
}

let simulator: Simulator;
let browser: Browser;
// One page for every report: the bundled Chromium runs as one process, which ends with its
// last page.
let page: Page;
beforeAll(async () => {
  simulator = await startSimulator({ apiKey: API_KEY, timeScale: 0.02 });
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await simulator?.close();
});

const env = () => cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY });

/** The report's figures as the headless browser shows them. */
async function reportFigures(runDir: string) {
  await page.goto(pathToFileURL(path.join(runDir, "report.html")).href);
  const text = async (selector: string) => (await page.locator(selector).textContent()) ?? "";
  const cell = async (column: number) =>
    Number(await page.locator("tfoot tr.total td.num").nth(column).textContent());
  return {
    spent: Number(await text("#spent-credits")),
    saved: (await page.locator("#saved-credits").count())
      ? Number(await text("#saved-credits"))
      : 0,
    // Numeric columns: time, videos, spent, saved, estimated, prompt, completion, tokens.
    tableSpent: await cell(2),
    tableSaved: await cell(3),
  };
}

describe("money: every figure agrees with the ledger and the service", { timeout: 240_000 }, () => {
  for (const [name, pipeline] of [
    ["storyboard", STORYBOARD],
    ["tool-loop", TOOL_LOOP],
  ] as const) {
    it(`${name}: a cached rerun spent 0 and saved what the first run spent, in the table, --json and the report`, async () => {
      const work = await tempDir();
      try {
        const before = simulator.stats().creditsCharged;
        const first = await runCli(["run", pipeline, "--json"], { cwd: work.dir, env: env() });
        expect(first.code, first.stderr).toBe(0);
        const spent = runEnd(first.stdout).totals.credits;
        expect(spent).toBeGreaterThan(0);
        expect(spent).toBe(simulator.stats().creditsCharged - before);
        const firstReport = await reportFigures(runDirOf(first.stdout));
        expect(firstReport).toMatchObject({ spent, saved: 0, tableSpent: spent });

        // The same run again, as a person reads it: every result from the cache.
        const second = await runCli(["run", pipeline], { cwd: work.dir, env: env() });
        expect(second.code, second.stderr).toBe(0);
        expect(simulator.stats().creditsCharged - before).toBe(spent);
        expect(totalRow(second.stdout)).toMatchObject({ tokens: 0, spent: 0, saved: spent });
        expect(second.stdout).toMatch(/0 jobs submitted, 0 re-attached, [1-9]\d* from cache/);
        const runDir = /run directory: (\S+)/.exec(second.stdout)?.[1];
        expect(await reportFigures(path.resolve(work.dir, String(runDir)))).toEqual({
          spent: 0,
          saved: spent,
          tableSpent: 0,
          tableSaved: spent,
        });

        const third = await runCli(["run", pipeline, "--json"], { cwd: work.dir, env: env() });
        expect(third.code, third.stderr).toBe(0);
        expect(runEnd(third.stdout).totals).toMatchObject({
          credits: 0,
          savedCredits: spent,
          jobsSubmitted: 0,
        });
        expect(simulator.stats().creditsCharged - before).toBe(spent);
      } finally {
        await work.remove();
      }
    });
  }

  it("Ctrl-C mid fan-out, then resume: spent equals what the service charged at each stage", async () => {
    // Slow jobs, so that the interrupt lands while clips are in flight.
    const slow = await startSimulator({ apiKey: API_KEY, timeScale: 0.3 });
    const work = await tempDir();
    try {
      const slowEnv = cleanEnv({ REELSMITH_BASE_URL: slow.url, REELSMITH_API_KEY: API_KEY });
      const run = startCli(
        ["run", STORYBOARD, "--input", "scenes=6", "--max-videos", "2", "--json"],
        { cwd: work.dir, env: slowEnv },
      );
      await run.waitFor(
        (output) => (output.stdout.match(/"stage":"submitted"/g) ?? []).length >= 2,
        120_000,
      );
      run.child.kill("SIGINT");
      const stopped = await run.done;
      expect(stopped.code).toBe(130);
      expect(stopped.stderr + stopped.stdout).toContain(
        "waiting for the video jobs already submitted",
      );
      // A stop waits for the jobs it paid for: none is left running at the service.
      expect(slow.stats().jobsInFlight).toBe(0);
      const interrupted = runEnd(stopped.stdout);
      expect(interrupted.status).toBe("cancelled");
      expect(interrupted.totals.credits).toBe(slow.stats().creditsCharged);
      expect(interrupted.totals.jobsSubmitted).toBe(slow.stats().videoJobs.created);
      // The storyboard's scenes, as many clips as the fan-out has items.
      const scenes = Number(
        events(stopped.stdout).find(
          (event) => event.type === "item.start" && event.step === "clips",
        )?.total,
      );
      expect(scenes).toBeGreaterThan(2);
      expect(interrupted.totals.jobsSubmitted).toBeLessThan(scenes);

      const runDir = runDirOf(stopped.stdout);
      const resumed = await runCli(["resume", runDir, "--json"], { cwd: work.dir, env: slowEnv });
      expect(resumed.code, resumed.stderr).toBe(0);
      const end = runEnd(resumed.stdout);
      // The ledger counts both sessions: what the service charged for every clip, each once
      // (scenes that ask for the same clip are served from the cache).
      expect(end.totals.credits).toBe(slow.stats().creditsCharged);
      expect(end.totals.jobsSubmitted).toBe(slow.stats().videoJobs.created);
      expect(end.totals.jobsSubmitted + end.totals.jobsCached).toBe(scenes);
      expect(await reportFigures(runDir)).toMatchObject({
        spent: slow.stats().creditsCharged,
        tableSpent: slow.stats().creditsCharged,
      });
    } finally {
      await work.remove();
      await slow.close();
    }
  });

  it("refuses a run whose certain cost is over max_credits before any request (exit 2)", async () => {
    const work = await tempDir();
    try {
      await writeFile(
        path.join(work.dir, "over.yaml"),
        [
          "name: over",
          "max_credits: 20",
          "defaults:",
          "  video: { model: reel-video-2-lite, seconds: 2, size: 854x480 }",
          "steps:",
          "  - id: title",
          "    chat: { model: reel-chat-1, prompt: A title for three clips }",
          "  - id: clips",
          "    for_each: [dawn, noon, dusk]",
          '    video: { prompt: "A lake at ${{ item }}" }',
          "",
        ].join("\n"),
      );
      const before = simulator.stats();
      const plan = await runCli(["plan", "over.yaml"], { cwd: work.dir, env: env() });
      expect(plan.stdout).toContain("expected cost: 27 credits (budget 20)");
      expect(plan.stdout).toContain("clips  3 × 9 = 27");
      const result = await runCli(["run", "over.yaml"], { cwd: work.dir, env: env() });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        "the run is expected to cost 27 credits (clips: 3 × 9 = 27), over its budget of 20; nothing was sent",
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const after = simulator.stats();
      expect(after.videoJobs.created).toBe(before.videoJobs.created);
      expect(after.chatCompletions).toBe(before.chatCompletions);
    } finally {
      await work.remove();
    }
  });

  it("a budget below one clip's price is refused before any request (exit 2)", async () => {
    const work = await tempDir();
    try {
      // The scenes are not bounded: only one clip's price is known before the run.
      const open = path.join(work.dir, "open.yaml");
      await writeFile(open, await unboundedStoryboard());
      const before = simulator.stats();
      const result = await runCli(["run", open, "--max-credits", "5", "--no-cache"], {
        cwd: work.dir,
        env: env(),
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("over its budget of 5; nothing was sent");
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const after = simulator.stats();
      expect(after.chatCompletions).toBe(before.chatCompletions);
      expect(after.videoJobs.created).toBe(before.videoJobs.created);
    } finally {
      await work.remove();
    }
  });

  it("a budget that cannot pay for a fan-out stops before its first clip, says what is missing, and resumes with a larger one", async () => {
    const work = await tempDir();
    try {
      const open = path.join(work.dir, "open.yaml");
      await writeFile(open, await unboundedStoryboard());
      const before = simulator.stats();
      const stopped = await runCli(["run", open, "--max-credits", "20", "--no-cache", "--json"], {
        cwd: work.dir,
        env: env(),
      });
      expect(stopped.code).toBe(3);
      const middle = simulator.stats();
      // The storyboard and the title were paid; no clip was.
      expect(middle.videoJobs.created).toBe(before.videoJobs.created);
      expect(middle.chatCompletions - before.chatCompletions).toBe(2);
      const end = runEnd(stopped.stdout) as unknown as {
        status: string;
        totals: Totals;
        error: { message: string };
      };
      expect(end.status).toBe("budget_reached");
      expect(end.error.message).toContain("its 4 items need 36 credits (4 × 9)");
      expect(end.error.message).toContain("--max-credits 36");
      // The estimate was worked out again once the fan-out's length was known.
      const estimates = events(stopped.stdout).filter((event) => event.type === "run.estimate");
      const last = estimates.at(-1)?.estimate as { credits: number } | undefined;
      expect(last?.credits).toBe(36);
      const budgetEvents = events(stopped.stdout).filter((e) => e.type === "budget.reached");
      expect(budgetEvents).toEqual([]);

      const resumed = await runCli(
        ["resume", runDirOf(stopped.stdout), "--max-credits", "36", "--json"],
        { cwd: work.dir, env: env() },
      );
      expect(resumed.code).toBe(0);
      const after = simulator.stats();
      expect(after.videoJobs.created - before.videoJobs.created).toBe(4);
      expect(runEnd(resumed.stdout).totals.credits).toBe(
        after.creditsCharged - before.creditsCharged,
      );
    } finally {
      await work.remove();
    }
  });

  it("--allow-partial makes the clips that fit, then stops budget_reached (exit 3)", async () => {
    const work = await tempDir();
    try {
      const open = path.join(work.dir, "open.yaml");
      await writeFile(open, await unboundedStoryboard());
      const before = simulator.stats();
      const result = await runCli(
        ["run", open, "--max-credits", "20", "--no-cache", "--allow-partial", "--json"],
        { cwd: work.dir, env: env() },
      );
      expect(result.code).toBe(3);
      const after = simulator.stats();
      expect(after.videoJobs.created - before.videoJobs.created).toBe(2);
      const end = runEnd(result.stdout);
      expect(end.totals.credits).toBe(after.creditsCharged - before.creditsCharged);
      expect(end.totals.credits).toBeLessThanOrEqual(20);
    } finally {
      await work.remove();
    }
  });

  it("a run started with --no-cache keeps it when a gate's approval continues it", async () => {
    const work = await tempDir();
    try {
      const gated = path.join(EXAMPLES, "storyboard", "approve.yaml");
      // Warm the cache with the same clips first.
      const warm = await runCli(["run", gated, "--auto-approve"], { cwd: work.dir, env: env() });
      expect(warm.code).toBe(0);
      const waiting = await runCli(["run", gated, "--no-cache", "--json"], {
        cwd: work.dir,
        env: env(),
      });
      expect(waiting.code).toBe(4);
      const before = simulator.stats();
      const approved = await runCli(
        ["approve", runDirOf(waiting.stdout), "--by", "test", "--continue"],
        { cwd: work.dir, env: env() },
      );
      expect(approved.code).toBe(0);
      // Four scenes, four new jobs: nothing served from the warm cache.
      expect(simulator.stats().videoJobs.created - before.videoJobs.created).toBe(4);
    } finally {
      await work.remove();
    }
  });

  it("refuses each kind of missing or wrong local file at file:line:column, before any request (exit 2)", async () => {
    const work = await tempDir();
    try {
      await writeFile(path.join(work.dir, "notes.txt"), "not subtitles, not audio, not a font\n");
      await writeFile(path.join(work.dir, "tool.yaml"), "name: tool\nsteps: []\n");
      // Each case: a step naming one bad file, after a chat step that would be paid first.
      const cases: [string, string, RegExp][] = [
        ["file: missing.srt", "subtitles", /subtitles not found: missing\.srt/],
        ["file: notes.txt", "subtitles", /notes\.txt cannot be used: it is not a subtitles file/],
        ["track: notes.txt", "audio", /notes\.txt cannot be used: its bytes are not audio/],
        ["image: missing.png", "video image", /image not found: missing\.png/],
        [
          "fonts: [notes.txt]",
          "caption font",
          /notes\.txt cannot be used: its bytes are not a font/,
        ],
        [
          "run: [node, missing-tool.mjs]",
          "tool script",
          /tool script not found: missing-tool\.mjs/,
        ],
        ["run: [no-such-program-here]", "tool command", /no-such-program-here is not on PATH/],
        [
          "pipeline: missing-tool.yaml",
          "tool pipeline",
          /tool pipeline not found: missing-tool\.yaml/,
        ],
      ];
      const body = (entry: string): string[] => {
        if (entry.startsWith("run:") || entry.startsWith("pipeline:"))
          return [
            "  - id: bad",
            "    chat:",
            "      model: reel-chat-1",
            "      prompt: Use the tool",
            "      tools:",
            "        - name: tool",
            "          description: A tool",
            `          ${entry}`,
          ];
        if (entry.startsWith("image:"))
          return [
            "  - id: bad",
            "    video:",
            "      model: reel-video-2-lite",
            "      prompt: A clip",
            `      ${entry}`,
          ];
        if (entry.startsWith("fonts:"))
          return [
            "  - id: bad",
            "    ffmpeg:",
            "      captions: clip.mp4",
            "      texts: [hello]",
            "      clips: [clip.mp4]",
            `      ${entry}`,
            "      output: captioned.mp4",
          ];
        return [
          "  - id: bad",
          "    ffmpeg:",
          `      ${entry.startsWith("track:") ? "audio" : "subtitles"}: clip.mp4`,
          `      ${entry}`,
          "      output: out.mp4",
        ];
      };
      const before = simulator.stats();
      for (const [index, [entry, what, message]] of cases.entries()) {
        const file = `case-${index}.yaml`;
        const lines = [
          `name: case-${index}`,
          "steps:",
          "  - id: first",
          "    chat: { model: reel-chat-1, prompt: Paid before the bad step }",
          ...body(entry),
          "",
        ];
        await writeFile(path.join(work.dir, file), lines.join("\n"));
        const line = lines.findIndex((text) => text.trim() === entry) + 1;
        for (const command of ["validate", "run"]) {
          const result = await runCli([command, file], { cwd: work.dir, env: env() });
          expect(result.code, `${command} ${what}: ${result.stdout}${result.stderr}`).toBe(2);
          const output = result.stdout + result.stderr;
          expect(output, what).toContain(`${file}:${line}:`);
          expect(output, what).toMatch(message);
          expect(output).not.toMatch(/\n\s+at /);
        }
      }
      const after = simulator.stats();
      expect(after.chatCompletions).toBe(before.chatCompletions);
      expect(after.videoJobs.created).toBe(before.videoJobs.created);
    } finally {
      await work.remove();
    }
  });
});
