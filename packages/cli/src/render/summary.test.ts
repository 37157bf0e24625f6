import { describe, expect, it } from "vitest";
import { storyboardEvents, storyboardResult } from "./__fixtures__/storyboard-events.js";
import { applyEvent, createRunView } from "./run-state.js";
import { formatSummary } from "./summary.js";

function finishedView() {
  const view = createRunView();
  for (const event of storyboardEvents) applyEvent(view, event);
  return view;
}

const tableOf = (summary: string) => summary.split("\n").slice(0, 5);

describe("formatSummary's width", () => {
  it("in a pipe or a log (no width) cuts nothing and keeps every column", () => {
    const summary = formatSummary(finishedView(), storyboardResult, { cwd: "/work" });
    expect(tableOf(summary)[0]).toBe(
      "step        status         duration  tokens  spent  saved  estimate",
    );
    expect(summary).toContain(
      "clips       succeeded 2/2  1.3s           -     16      -    8/item",
    );
  });

  it("on a terminal narrower than the table leaves out the columns that say nothing", () => {
    const summary = formatSummary(finishedView(), storyboardResult, { cwd: "/work", width: 62 });
    const table = tableOf(summary);
    expect(table[0]).toBe("step        status         duration  tokens  spent  estimate");
    for (const line of table) expect(line.length).toBeLessThanOrEqual(62);
    expect(table[2]).toBe("clips       succeeded 2/2  1.3s           -     16    8/item");
  });

  it("on a wide terminal is the same as without a width", () => {
    const view = finishedView();
    expect(formatSummary(view, storyboardResult, { cwd: "/work", width: 200 })).toBe(
      formatSummary(view, storyboardResult, { cwd: "/work" }),
    );
  });

  it("cuts a long text output to the terminal, and not in a pipe", () => {
    const long = "A very long title ".repeat(10).trim();
    const result = { ...storyboardResult, outputs: { ...storyboardResult.outputs, title: long } };
    const narrow = formatSummary(finishedView(), result, { cwd: "/work", width: 60 });
    const titleLine = narrow.split("\n").find((line) => line.startsWith("  title"));
    expect(titleLine?.length).toBeLessThanOrEqual(60);
    expect(titleLine).toMatch(/…$/);
    const piped = formatSummary(finishedView(), result, { cwd: "/work" });
    expect(piped.split("\n").find((line) => line.startsWith("  title"))).toMatch(/…$/);
    expect(piped).toContain(long.slice(0, 100));
  });
});

describe("formatSummary of a run stopped in the middle of a step", () => {
  it("shows what the ledger says the stopped step spent, as the total does", () => {
    const firstClip = storyboardEvents.findIndex(
      (event) => event.type === "item.end" && event.step === "clips",
    );
    const view = createRunView();
    for (const event of storyboardEvents.slice(0, firstClip + 1)) applyEvent(view, event);
    const totals = {
      ...storyboardResult.totals,
      credits: 8,
      made: { videos: 1 },
      jobsSubmitted: 2,
    };
    const summary = formatSummary(
      view,
      {
        ...storyboardResult,
        status: "cancelled",
        totals,
        steps: {
          storyboard: { status: "succeeded", totals: { ...totals, credits: 0, made: {} } },
          clips: { status: "cancelled", totals: { ...totals, totalTokens: 0 } },
        },
      },
      { cwd: "/work" },
    );
    const clips = summary.split("\n").find((line) => line.startsWith("clips"));
    const total = summary.split("\n").find((line) => line.startsWith("total"));
    expect(clips).toMatch(/^clips\s+cancelled 1\/2\s+\S+\s+-\s+8\s/);
    expect(total).toMatch(/^total\s+cancelled\s+\S+\s+42\s+8\s/);
  });
});

describe("formatSummary of what is not one credit figure", () => {
  it("shows a step priced in another unit in that unit, never added to credits", () => {
    const totals = { ...storyboardResult.totals, otherUnits: { usd: 0.15 } };
    const summary = formatSummary(
      finishedView(),
      {
        ...storyboardResult,
        totals,
        steps: {
          storyboard: { status: "succeeded", totals: { ...totals, credits: 0 } },
          clips: { status: "succeeded", totals: { ...totals, credits: 16, otherUnits: {} } },
        },
      },
      { cwd: "/work" },
    );
    const row = (step: string) => summary.split("\n").find((line) => line.startsWith(step));
    expect(row("storyboard")).toMatch(/\s0\.15 usd\s/);
    expect(row("clips")).toMatch(/\s16\s/);
    expect(row("clips")).not.toMatch(/usd/);
    expect(summary).toContain("and 0.15 usd spent, not in credits");
  });

  it("lists a list of texts a line each, and a list of files as files", () => {
    const result = {
      ...storyboardResult,
      outputs: { answers: ["4", "nine\nand more"], clips: ["/work/c/0.mp4", "/elsewhere/1.mp4"] },
    };
    const lines = formatSummary(finishedView(), result, { cwd: "/work" }).split("\n");
    expect(lines).toContain("  answers[0]  4");
    expect(lines).toContain("  answers[1]  nine…");
    expect(lines).toContain("  clips[0]    c/0.mp4");
    expect(lines).toContain("  clips[1]    /elsewhere/1.mp4");
  });
});
