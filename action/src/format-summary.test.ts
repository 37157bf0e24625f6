import { describe, expect, it } from "vitest";
import { cell, formatDuration, formatSummary } from "./format-summary.js";
import { digestRun, parseEvents } from "./run-digest.js";
import { actionStatus } from "./summarize-run.js";

const t = (ms: number) => new Date(Date.parse("2026-01-01T10:00:00Z") + ms).toISOString();

const resumedLog = [
  {
    type: "run.start",
    time: t(0),
    runId: "r1",
    runDir: "/w/runs/r1",
    name: "film",
    resumed: false,
    steps: [
      { id: "plan", kind: "chat", fanOut: false },
      { id: "clips", kind: "video", fanOut: true },
    ],
  },
  { type: "step.start", time: t(1), step: "plan" },
  {
    type: "unit.progress",
    time: t(2),
    step: "plan",
    kind: "chat",
    phase: "usage",
    stage: "usage",
    usage: { total_tokens: 50 },
  },
  {
    type: "step.end",
    time: t(900),
    step: "plan",
    durationMs: 899,
    cached: false,
    totals: { totalTokens: 50, credits: 0 },
  },
  { type: "step.start", time: t(901), step: "clips" },
  { type: "item.end", time: t(1500), step: "clips", index: 0, total: 2, status: "succeeded" },
  {
    type: "item.end",
    time: t(1600),
    step: "clips",
    index: 1,
    total: 2,
    status: "failed",
    error: { message: "boom" },
  },
  { type: "step.fail", time: t(1601), step: "clips", error: { message: "boom" } },
  {
    type: "run.end",
    time: t(1602),
    status: "failed",
    durationMs: 1602,
    totals: { totalTokens: 50, credits: 8, made: { videos: 2 } },
    outputs: {},
    error: { message: "step clips failed", code: "step_failed", step: "clips" },
  },
  // the resume: plan is reused, clips runs again and the ledger reports savings and an estimate
  {
    type: "run.start",
    time: t(5000),
    runId: "r1",
    runDir: "/w/runs/r1",
    name: "film",
    resumed: true,
    steps: [
      { id: "plan", kind: "chat", fanOut: false },
      { id: "clips", kind: "video", fanOut: true },
    ],
  },
  {
    type: "step.end",
    time: t(5001),
    step: "plan",
    durationMs: 0,
    cached: false,
    reused: true,
    totals: { totalTokens: 0, credits: 0 },
  },
  { type: "step.start", time: t(5002), step: "clips" },
  { type: "item.end", time: t(5600), step: "clips", index: 0, total: 2, status: "reused" },
  { type: "item.end", time: t(6000), step: "clips", index: 1, total: 2, status: "succeeded" },
  {
    type: "step.end",
    time: t(6001),
    step: "clips",
    durationMs: 999,
    cached: false,
    totals: { totalTokens: 0, credits: 4, savedCredits: 4, estimatedCredits: 8 },
  },
  {
    type: "run.end",
    time: t(6002),
    status: "succeeded",
    durationMs: 1002,
    totals: {
      totalTokens: 0,
      credits: 4,
      savedCredits: 4,
      estimatedCredits: 8,
      made: { videos: 1 },
    },
    outputs: { title: "A | B\n<b>" },
  },
]
  .map((event) => JSON.stringify(event))
  .join("\n");

describe("the job summary", () => {
  it("folds a resumed run's log: the latest session wins, saved and estimated credits fill their columns", () => {
    const digest = digestRun(parseEvents(`${resumedLog}\n{"type":"run.e`));
    expect(actionStatus(digest, 0)).toBe("succeeded");
    const markdown = formatSummary(digest, {
      status: actionStatus(digest, 0),
      exitCode: 0,
      pipeline: "film.yaml",
      workspace: "/w",
      outputs: { files: [], values: [{ name: "title", value: "A | B\n<b>" }] },
    });
    expect(markdown).toContain(
      "**4 credits** spent · 4 saved · 8 estimated · 0 tokens · 1 video · 1.0 s · exit code 0",
    );
    expect(markdown).toContain("| plan | reused | — | 0 | 0 | — | — |");
    expect(markdown).toContain("| clips | succeeded 2/2 | 999 ms | 0 | 4 | 4 | 8 |");
    expect(markdown).toContain("| **total** | **succeeded** | 1.0 s | 0 | 4 | 4 | 8 |");
    expect(markdown).toContain("| title | A \\| B &lt;b&gt; |");
    expect(markdown).toContain("The run directory is `runs/r1` (not uploaded).");
  });

  it("shows a failure's error, its failed items, and the statuses the action reports", () => {
    const firstSession = resumedLog.split("\n").slice(0, 9).join("\n");
    const digest = digestRun(parseEvents(firstSession));
    const markdown = formatSummary(digest, {
      status: actionStatus(digest, 1),
      exitCode: 1,
      pipeline: "film.yaml",
      workspace: "/elsewhere",
      outputs: { files: [], values: [] },
      artifact: { name: "reelsmith-r1" },
    });
    expect(markdown).toMatch(/^## ❌ reelsmith: film failed$/m);
    expect(markdown).toContain("| clips | failed 1/2 (1 failed) | 700 ms | — | — | — | — |");
    expect(markdown).toContain("> **Error** `step_failed` (step clips): step clips failed");
    expect(markdown).toContain(
      "The run directory `/w/runs/r1` is uploaded as the artifact **reelsmith-r1**.",
    );
    expect(actionStatus({ ...digest, budgetReached: true }, 1)).toBe("budget_reached");
    expect(actionStatus({ ...digest, status: "cancelled" }, 130)).toBe("interrupted");
    expect(actionStatus({ ...digest, status: undefined }, 130)).toBe("interrupted");
    expect(actionStatus({ steps: [], outputs: {}, budgetReached: false }, 2)).toBe("not_started");
  });

  it("keeps table cells and durations readable", () => {
    expect(cell("a|b\r\nc `d` <e> & \\")).toBe("a\\|b c 'd' &lt;e&gt; &amp; \\\\");
    expect([850, 12_345, 245_000].map(formatDuration)).toEqual(["850 ms", "12.3 s", "4 min 05 s"]);
  });
});
