import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { RunEvent } from "@reelsmith/runner";
import { afterAll, describe, expect, it } from "vitest";
import { type WriteReportResult, writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { fixture, startFixtureService } from "./helpers/run-fixture.js";

const statesFile = fixture("states.yaml");

/** file:line:column of the clips step's entry (its `- id:`) in the fixture. */
function clipsStepPosition(): string {
  const lines = readFileSync(statesFile, "utf8").split("\n");
  const line = lines.indexOf("  - id: clips") + 1;
  return `${statesFile}:${line}:5`;
}

describe("the report of failed, interrupted and running runs", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it("shows a failed item with its attempts, its error and file:line:column, in the browser", async () => {
    // The first two video jobs fail: item 0 fails on both attempts; items 1 and 2 succeed.
    const service = await startFixtureService({ faults: "fail-job:#1#2" });
    closers.push(() => service.close());
    const messages: string[] = [];
    const result = await service.run(statesFile, {
      onEvent: (event: RunEvent) => {
        if (event.type === "step.fail" || event.type === "item.end") {
          if (event.error?.message) messages.push(event.error.message);
        }
      },
    });
    expect(result.status).toBe("failed");
    const { file, model } = await writeReport(result.runDir);
    expect(model.status).toBe("failed");
    const browser = await launchBrowser();
    closers.push(() => browser.close());
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    expect(await page.locator("#run-status").textContent()).toBe("failed");
    const failed = page.locator('article.card[data-step="clips"][data-index="0"]');
    expect(await failed.getAttribute("class")).toContain("failed");
    expect(await failed.locator("dt", { hasText: "attempts" }).locator("+ dd").textContent()).toBe(
      "2",
    );
    expect(await failed.locator(".error-text").textContent()).toMatch(/fail/i);
    expect(await page.locator('article.card.succeeded[data-step="clips"]').count()).toBe(2);
    const error = page.locator("li.error").first();
    // The report places the step where the run's own error message does.
    const location = await error.locator(".location").textContent();
    expect(location).toBe(clipsStepPosition());
    // (the message names the file from the working directory, the report as it was run)
    const lineColumn = /:\d+:\d+$/.exec(location ?? "")?.[0];
    expect(lineColumn).toBeDefined();
    expect(messages.some((message) => message.includes(`states.yaml${lineColumn}) failed`))).toBe(
      true,
    );
    expect(await error.locator("b").textContent()).toBe("clips #0");
    expect(await page.locator('svg.gantt g.bar.failed[data-step="clips"]').count()).toBe(1);
  });

  it("reports an interrupted run as cancelled, with what was done so far", async () => {
    const service = await startFixtureService({ timeScale: 0.5 });
    closers.push(() => service.close());
    const controller = new AbortController();
    const result = await service.run(statesFile, {
      signal: controller.signal,
      onEvent: (event: RunEvent) => {
        if (event.type === "unit.progress" && event.stage === "submitted") controller.abort();
      },
    });
    expect(result.status).toBe("cancelled");
    const { model } = await writeReport(result.runDir);
    expect(model.status).toBe("cancelled");
    expect(model.exitReason).toMatch(/interrupted.*reelsmith resume/);
    expect(model.cards).toHaveLength(3);
    expect(model.cards.filter((card) => card.status === "succeeded")).toHaveLength(0);
    expect(model.cards[0]?.jobId).toMatch(/^video_/);
  });

  it("rebuilds the report of a run still in progress: what is known so far", async () => {
    const service = await startFixtureService({ timeScale: 0.05 });
    closers.push(() => service.close());
    let runDir = "";
    let during: Promise<WriteReportResult> | undefined;
    const result = await service.run(statesFile, {
      onEvent: (event: RunEvent) => {
        if (event.type === "run.start") runDir = event.runDir;
        if (event.type === "item.end" && event.index === 0) during = writeReport(runDir);
      },
    });
    expect(result.status).toBe("succeeded");
    const partial = await during;
    expect(partial?.model.inProgress).toBe(true);
    expect(partial?.model.status).toBe("running");
    expect(partial?.model.exitReason).toMatch(/still running/);
    expect(partial?.model.cards.some((card) => card.status !== "succeeded")).toBe(true);
    const after = await writeReport(result.runDir);
    expect(after.model.inProgress).toBe(false);
    expect(after.model.status).toBe("succeeded");
    expect(after.model.cards.every((card) => card.status === "succeeded")).toBe(true);
    expect(after.thumbnails.made + after.thumbnails.reused).toBe(3);
  });
});
