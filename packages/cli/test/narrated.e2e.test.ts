import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { probe } from "@reelsmith/media";
import { writeReport } from "@reelsmith/report";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cleanEnv, EXAMPLES, runCli, tempDir } from "./helpers/cli-process.js";
import { encodeChain, ffmpegCommands } from "./helpers/ffmpeg-encodes.js";
import { NARRATED_PROFILE } from "./helpers/narrated-profile.js";

const API_KEY = "sk-e2e-narrated-key-4242";
const NARRATED = path.join(EXAMPLES, "narrated", "pipeline.yaml");

let simulator: Simulator;
let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  simulator = await startSimulator({
    apiKey: API_KEY,
    timeScale: 0.02,
    profile: parse(NARRATED_PROFILE),
  });
  work = await tempDir();
  await writeFile(path.join(work.dir, "reelsmith.config.yaml"), NARRATED_PROFILE);
});
afterAll(async () => {
  await simulator?.close();
  await work?.remove();
});

const env = () => cleanEnv({ REELSMITH_BASE_URL: simulator.url, REELSMITH_API_KEY: API_KEY });

/** The ASS events' start times (seconds) of a captioned film. */
async function eventStarts(file: string): Promise<number[]> {
  const text = await readFile(file, "utf8");
  return [...text.matchAll(/^Dialogue: \d+,(\d+):(\d+):(\d+)\.(\d+),/gm)].map(
    ([, h, m, s, cs]) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(cs) / 100,
  );
}

/** Each `Dialogue:` event of an ASS script: its times (seconds) and every word it draws. */
async function assEvents(file: string): Promise<{ start: number; end: number; text: string }[]> {
  const seconds = (time: string) => {
    const [hours, minutes, rest] = time.split(":");
    return Number(hours) * 3600 + Number(minutes) * 60 + Number(rest);
  };
  const text = await readFile(file, "utf8");
  return [...text.matchAll(/^Dialogue: \d+,([^,]+),([^,]+),(?:[^,]*,){6}(.*)$/gm)].map(
    ([, start, end, body]) => ({
      start: seconds(start ?? ""),
      end: seconds(end ?? ""),
      // Every word of its page, those not yet said (pop) included; tags and line breaks out.
      text: (body ?? "")
        .replace(/\{[^}]*\}/g, "")
        .replace(/\\N/g, " ")
        .trim(),
    }),
  );
}

/**
 * The captions of both finals, read from the ASS scripts the steps wrote, against the
 * clips' boundaries: every page holds words of one scene only (a run of its narration as
 * written, punctuation kept) and is on screen within that scene (from its first word on,
 * gone once the next scene's first word is said).
 */
async function expectCaptionsWithinScenes(runDir: string): Promise<void> {
  const journal = (await readFile(path.join(runDir, "journal.jsonl"), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const narrations = journal
    .filter((record) => record.type === "item.end" && record.step === "narration")
    .sort((a, b) => Number(a.index) - Number(b.index))
    .map((record) => (record.outputs as { words: { word: string; start: number }[] }).words);
  expect(narrations).toHaveLength(3);
  // Where each clip starts on the film: the fitted clips joined with 0.3 s crossfades.
  const starts = [0];
  for (const index of [0, 1]) {
    const clip = await probe(path.join(runDir, "fitted", `scene-${index}.mp4`));
    starts.push((starts.at(-1) ?? 0) + (clip.videoDuration ?? clip.duration) - 0.3);
  }
  const sceneTexts = narrations.map((words) => words.map((entry) => entry.word).join(" "));
  // The words as the storyboard wrote them: each scene's narration ends with its full stop.
  for (const text of sceneTexts) expect(text).toMatch(/[.!?]$/);
  const firstSaid = narrations.map((words, scene) => (starts[scene] ?? 0) + (words[0]?.start ?? 0));
  for (const final of ["final-16x9.ass", "final-9x16.ass"]) {
    const events = await assEvents(path.join(runDir, final));
    expect(events.length).toBeGreaterThan(10);
    for (const event of events) {
      // The scene whose clip is on screen when the event starts.
      const scene = starts.filter((start) => start <= event.start).length - 1;
      expect(sceneTexts[scene], `${final} at ${event.start} s`).toContain(event.text);
      const next = firstSaid[scene + 1];
      if (next !== undefined) expect(event.end).toBeLessThanOrEqual(next + 0.005);
    }
    // At each scene's first word, the page on screen starts with it: that scene's words only.
    narrations.forEach((words, scene) => {
      const at = (firstSaid[scene] ?? 0) + 0.02;
      const showing = events.filter((event) => event.start <= at && event.end > at);
      expect(showing, `${final} at ${at} s`).toHaveLength(1);
      expect(showing[0]?.text.startsWith(words[0]?.word ?? "?")).toBe(true);
      expect(sceneTexts[scene]).toContain(showing[0]?.text);
    });
    // The full stop is kept where the text has it, and no page joins two sentences.
    expect(events.some((event) => /[.!?]$/.test(event.text))).toBe(true);
    expect(events.some((event) => /[.!?] \S/.test(event.text))).toBe(false);
  }
}

describe("the narrated example (built CLI, against a simulator)", () => {
  it("stops at the keyframes before any clip is paid, then makes a film with a voice, music, word captions and two aspect ratios, its figures equal to the charges", async () => {
    const waiting = await runCli(["run", NARRATED], { cwd: work.dir, env: env() });
    expect(waiting.code, waiting.stdout + waiting.stderr).toBe(4);
    // The gate shows the keyframes; nothing behind it (narration, clips) was paid.
    expect(waiting.stdout).toMatch(/shows 3 images/);
    expect(waiting.stdout).toMatch(/keyframes\/scene-2\.png/);
    const atGate = simulator.stats();
    expect(atGate.videoJobs.created).toBe(0);
    expect(atGate.speech.requests).toBe(0);
    expect(atGate.images.edits).toBe(3);
    const runDir = path.resolve(work.dir, /, directory (\S+)$/m.exec(waiting.stdout)?.[1] ?? "");
    // The gate says what approving costs: the narration's text is known, and each clip's
    // length lies between what its narration's length allows: a finite range.
    const range = /^after approval: between (\d+) and (\d+) credits more$/m.exec(waiting.stdout);
    expect(range, waiting.stdout).not.toBeNull();
    const [least, most] = [Number(range?.[1]), Number(range?.[2])];
    expect(least).toBeGreaterThan(0);
    expect(most).toBeGreaterThan(least);

    const approved = await runCli(["approve", runDir, "--by", "test", "--continue"], {
      cwd: work.dir,
      env: env(),
    });
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    const stats = simulator.stats();
    expect(stats.videoJobs.created).toBe(3);
    expect(stats.speech.requests).toBe(3);
    // Approving spent inside the range the gate gave.
    const afterGate = stats.creditsCharged - atGate.creditsCharged;
    expect(afterGate).toBeGreaterThanOrEqual(least);
    expect(afterGate).toBeLessThanOrEqual(most);
    // The final table: every paid step priced, the total certain (no `?`, no `N+`).
    const table = approved.stdout.slice(approved.stdout.indexOf("step "));
    const rows = table
      .split("\n")
      .slice(1, table.split("\n").findIndex((line) => /^total/.test(line)) + 1);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect(row, table).not.toMatch(/\s\?$|\d\+$/);
    const total = /^total\s+succeeded.*\s(\d+)\s+\S+\s+(\d+)$/m.exec(table);
    expect(Number(total?.[1]), table).toBe(stats.creditsCharged);
    expect(Number(total?.[2]), table).toBe(stats.creditsCharged);

    const run = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8")) as {
      status: string;
      totals: { credits: number; estimatedCredits?: number };
      outputs: { wide: string; tall: string; loudness: number };
    };
    expect(run.status).toBe("succeeded");
    // Every credit the service charged, counted once: images, speech, transcription, clips.
    expect(run.totals.credits).toBe(stats.creditsCharged);
    // The same figures in run.json and the report: spent from the ledger, the estimate the
    // whole run's, certain once every unit is made.
    expect(run.totals.estimatedCredits).toBe(stats.creditsCharged);
    const { model } = await writeReport(runDir);
    expect(model.totals.credits).toBe(stats.creditsCharged);
    expect(model.estimate).toMatchObject({ credits: stats.creditsCharged, complete: true });
    // Active time is the two sessions' work, from each one's start to its end as journaled;
    // the wait at the gate (until the approval's resume) is counted apart.
    const journal = (await readFile(path.join(runDir, "journal.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; time?: string });
    const times = (type: string) =>
      journal
        .filter((record) => record.type === type)
        .map((record) => Date.parse(record.time ?? ""));
    const [started] = times("run.start");
    const [resumed] = times("run.resume");
    const [firstEnd, lastEnd] = times("run.end");
    const worked = (firstEnd ?? 0) - (started ?? 0) + ((lastEnd ?? 0) - (resumed ?? 0));
    expect(model.active).toEqual({
      ms: worked,
      sessions: 2,
      betweenMs: (resumed ?? 0) - (firstEnd ?? 0),
    });
    // Both finals at their sizes, the same length to the frame, at the loudness asked for.
    const wide = await probe(run.outputs.wide);
    const tall = await probe(run.outputs.tall);
    expect([wide.width, wide.height]).toEqual([854, 480]);
    expect([tall.width, tall.height]).toEqual([480, 854]);
    expect(Math.abs(wide.duration - tall.duration)).toBeLessThan(1 / 24);
    expect(wide.hasAudio).toBe(true);
    expect(Math.abs(run.outputs.loudness - -14)).toBeLessThanOrEqual(1);
    // Each scene's words start after its clip starts: the captions follow the narration.
    const starts = await eventStarts(path.join(runDir, "final-16x9.ass"));
    expect(starts.length).toBeGreaterThan(10);
    expect(starts[0]).toBeLessThan(0.5);
    await expectCaptionsWithinScenes(runDir);
    // From each generated clip to either final, at most two lossy H.264 encodes (ffmpeg's
    // own command lines, as the run told them): the passes between write losslessly.
    const commands = await ffmpegCommands(runDir);
    for (const [final, passes] of [
      [run.outputs.wide, 4], // fit, join, mix, captions
      // fit, join, mix, reframe with captions: the reframe writes tall.mp4 and, in the same
      // pass, the captioned final (its one reader's file)
      [run.outputs.tall, 4],
    ] as const) {
      const chain = encodeChain(commands, path.resolve(final));
      expect(chain.from, final).toMatch(/clips[\\/]scene-\d\.mp4$/);
      expect(chain.passes, final).toBe(passes);
      expect(chain.lossy, final).toBeGreaterThanOrEqual(1);
      expect(chain.lossy, final).toBeLessThanOrEqual(2);
    }

    // The same film again: every paid request is in the cache (the clips found by their
    // keyframes' and narrations' bytes, not their first run's paths), and the plan knows it
    // before anything is sent; a budget below one image is then enough.
    const plan = await runCli(["plan", NARRATED, "--json"], { cwd: work.dir, env: env() });
    expect(plan.code, plan.stderr).toBe(0);
    const limits = (JSON.parse(plan.stdout) as { limits: Record<string, unknown> }).limits;
    expect(limits.estimate).toMatchObject({ credits: 0, complete: true });
    expect(Object.values(limits.requests as Record<string, number>)).toEqual(
      Object.values(limits.requests as Record<string, number>).map(() => 0),
    );
    const again = await runCli(["run", NARRATED, "--auto-approve", "--max-credits", "1"], {
      cwd: work.dir,
      env: env(),
    });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^expected cost: 0 credits \(budget 1\)$/m);
    expect(simulator.stats().creditsCharged).toBe(stats.creditsCharged);
    expect(simulator.stats().videoJobs.created).toBe(3);
    // A whole film twice: images, speech, clips and a dozen ffmpeg passes, on a loaded machine.
  }, 600_000);
});
