import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type RunEvent, runPipeline } from "@reelsmith/runner";
import { encodeRecord } from "@reelsmith/runner/internal";
import { ledgerOf, readJournal } from "@reelsmith/runner/runs";
import { afterAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { fixture, startFixtureService } from "./helpers/run-fixture.js";

describe("the report of a resumed run", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it("counts what every session spent, marks the resume and shows every clip", async () => {
    const service = await startFixtureService({ timeScale: 0.05 });
    closers.push(() => service.close());
    const controller = new AbortController();
    const first = await service.run(fixture("states.yaml"), {
      signal: controller.signal,
      onEvent: (event: RunEvent) => {
        // Stop once one clip is done: the first session has spent something.
        if (event.type === "item.end" && event.status === "succeeded") controller.abort();
      },
    });
    expect(first.status).toBe("cancelled");
    const interrupted = await writeReport(first.runDir);
    expect(interrupted.model.status).toBe("cancelled");
    const spentBefore = interrupted.model.totals.credits;
    expect(spentBefore).toBeGreaterThan(0);

    const resumed = await runPipeline(undefined, {
      resume: first.runDir,
      client: service.client,
      cacheDir: join(service.root, "cache"),
      cache: false,
    });
    expect(resumed.status).toBe("succeeded");
    const { model } = await writeReport(first.runDir);
    expect(model.status).toBe("succeeded");
    expect(model.timeline.resumes).toHaveLength(1);
    expect(model.cards.map((card) => card.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(model.timeline.rows.filter((row) => row.step === "clips")).toHaveLength(3);
    // The run's ledger counts every session: the resumed run, its report and the service agree.
    const charged = service.simulator.stats().creditsCharged;
    expect(model.totals.credits).toBe(charged);
    expect(resumed.totals.credits).toBe(charged);
    expect(model.totals.credits).toBeGreaterThan(spentBefore);
    const journaled = ledgerOf(readJournal(join(first.runDir, "journal.jsonl"))).total.credits;
    expect(model.totals.credits).toBe(journaled);

    // As if the resume came an hour later: every record from `run.resume` on, and run.json's
    // times, move by an hour (re-encoded, so the journal's checksums hold).
    const hour = 3_600_000;
    const later = (time: unknown) => new Date(Date.parse(String(time)) + hour).toISOString();
    const journalFile = join(first.runDir, "journal.jsonl");
    let afterResume = false;
    const shifted = readJournal(journalFile).map((record) => {
      if (record.type === "run.resume") afterResume = true;
      const { sum: _sum, ...rest } = record as typeof record & { sum?: string };
      return afterResume && rest.time ? { ...rest, time: later(rest.time) } : rest;
    });
    expect(afterResume).toBe(true);
    writeFileSync(journalFile, shifted.map((record) => encodeRecord(record)).join(""));
    const runJsonFile = join(first.runDir, "run.json");
    const runJson = JSON.parse(readFileSync(runJsonFile, "utf8"));
    writeFileSync(
      runJsonFile,
      JSON.stringify({
        ...runJson,
        resumedAt: later(runJson.resumedAt),
        endedAt: later(runJson.endedAt),
      }),
    );
    const report = await writeReport(first.runDir);
    expect(report.model.active?.sessions).toBe(2);
    const browser = await launchBrowser();
    closers.push(() => browser.close());
    const page = await browser.newPage();
    await page.goto(pathToFileURL(report.file).href, { waitUntil: "load" });
    const wall = page.locator("dt", { hasText: "wall time" }).locator("+ dd");
    expect(await wall.textContent()).toMatch(/^60 min/);
    // The active time is the two sessions' work: seconds, not the hour between them.
    const active = await page.locator("#active-time").textContent();
    expect(active).toMatch(/^\d+(\.\d)? s$|^\d+ ms$/);
    expect(
      await page.locator("dt", { hasText: "active time" }).locator("+ dd").textContent(),
    ).toContain("in 2 sessions");
  });
});
