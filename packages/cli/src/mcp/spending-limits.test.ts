import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { encodeRecord } from "@reelsmith/runner/internal";
import { afterEach, describe, expect, it } from "vitest";
import { createSpendingLimits } from "./spending-limits.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A run directory whose journal's ledger says it spent `credits`. */
async function runThatSpent(credits: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "reelsmith-limits-"));
  dirs.push(dir);
  const records = [
    { type: "run.start", runId: "r", name: "t", pipelineHash: "h", pipelinePath: "p", inputs: {} },
    { type: "ledger", step: "clips", index: 0, totals: { credits } },
  ];
  await writeFile(path.join(dir, "journal.jsonl"), records.map(encodeRecord).join(""));
  return dir;
}

describe("createSpendingLimits", () => {
  it("grants min(asked, ceiling, spent + left); asking for more gets no more", () => {
    const limits = createSpendingLimits({ maxCredits: 100, maxTotalCredits: 300 });
    expect(limits.grant({ asked: 50, spent: 0 })).toMatchObject({ budget: 50, allowance: 50 });
    expect(limits.grant({ asked: 1000, spent: 0 })).toMatchObject({ budget: 100, ceiling: 100 });
    expect(limits.grant({ own: 500, spent: 0 })).toMatchObject({ budget: 100 });
    expect(limits.grant({ own: 40, spent: 10 })).toMatchObject({ budget: 40, allowance: 30 });
  });

  it("without limits, a call keeps the run's own budget (or none)", () => {
    const limits = createSpendingLimits({});
    expect(limits.grant({ own: 500, spent: 0 }).budget).toBe(500);
    expect(limits.grant({ spent: 0 }).budget).toBeUndefined();
    expect(limits.left()).toBeUndefined();
  });

  it("a running call holds its whole allowance; once ended, only what its run spent counts", async () => {
    const limits = createSpendingLimits({ maxTotalCredits: 100 });
    const first = limits.grant({ asked: 60, spent: 0 });
    const hold = limits.hold(first);
    expect(limits.left()).toBe(40);
    expect(limits.grant({ asked: 60, spent: 0 }).budget).toBe(40);
    const dir = await runThatSpent(18);
    hold.attach(dir);
    expect(limits.spent()).toBe(18);
    hold.end();
    expect(limits.left()).toBe(82);
  });

  it("a call on a run that spent before counts only what it adds", async () => {
    const dir = await runThatSpent(27);
    const limits = createSpendingLimits({ maxCredits: 30, maxTotalCredits: 100 });
    const grant = limits.grant({ spent: 27 });
    expect(grant).toMatchObject({ budget: 30, allowance: 3, spent: 27 });
    const hold = limits.hold(grant, dir);
    expect(limits.spent()).toBe(0);
    expect(limits.left()).toBe(97);
    hold.end();
    expect(limits.left()).toBe(100);
  });
});
