import { pathToFileURL } from "node:url";
import { type RunResult, runPipeline } from "@reelsmith/runner";
import { decideApproval } from "@reelsmith/runner/runs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { type FixtureService, fixture, startFixtureService } from "./helpers/run-fixture.js";

describe("the report of a run with a gate, in headless Chromium", () => {
  let service: FixtureService;
  let browser: Browser;
  // One page for every test: the packaged Chromium runs as one process, which closing its
  // only page would end.
  let page: Page;
  let waiting: RunResult;
  beforeAll(async () => {
    service = await startFixtureService();
    browser = await launchBrowser();
    page = await browser.newPage();
    waiting = await service.run(fixture("gate.yaml"));
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("shows a waiting run: its status, the gate's question and what it shows, and what approving costs", async () => {
    expect(waiting.status).toBe("waiting");
    const { file, model } = await writeReport(waiting.runDir);
    expect(model.status).toBe("waiting");
    expect(model.approvals).toEqual([
      expect.objectContaining({
        step: "review",
        state: "waiting",
        message: "Look at the <scenes> & approve",
      }),
    ]);
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    expect(await page.locator("#run-status").textContent()).toBe("waiting");
    expect(await page.locator(".status-line").textContent()).toContain(
      "waiting for approval at review",
    );
    const gate = page.locator('article.gate[data-step="review"]');
    expect(await gate.locator(".badge").textContent()).toBe("waiting");
    // Text from the pipeline is shown as text, never as markup.
    expect(await gate.locator(".message").textContent()).toBe("Look at the <scenes> & approve");
    const board = waiting.steps.board?.outputs as { json?: { scenes?: unknown[] } } | undefined;
    const scenes = board?.json?.scenes;
    const shown = JSON.parse((await gate.locator("details.shown pre").textContent()) ?? "null");
    expect(shown).toEqual(scenes);
    // Two clips at the model's price wait behind the gate; none was made.
    const next = model.next;
    expect(next?.steps.clips?.units).toBe(2);
    expect(await page.locator("#next-credits").textContent()).toBe(String(next?.credits));
    expect(next?.credits).toBeGreaterThan(0);
    expect(model.cards.every((card) => card.status === "pending")).toBe(true);
  });

  it("shows who decided, when and why once the run went on", async () => {
    const { decision } = await decideApproval(waiting.runDir, {
      approved: true,
      by: "ana <editor>",
      note: "scene 2: <i>warmer</i> light",
    });
    const resumed = await runPipeline(undefined, {
      client: service.client,
      resume: waiting.runDir,
      cache: false,
    });
    expect(resumed.status).toBe("succeeded");
    const { file } = await writeReport(waiting.runDir);
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    expect(await page.locator("#run-status").textContent()).toBe("succeeded");
    const gate = page.locator('article.gate[data-step="review"]');
    expect(await gate.locator(".badge").textContent()).toBe("approved");
    expect(await gate.locator(".decided-by").textContent()).toBe("ana <editor>");
    expect(await gate.locator(".decided-at").textContent()).toBe(decision.at);
    expect(await gate.locator(".note-text").textContent()).toBe("scene 2: <i>warmer</i> light");
    expect(await gate.locator("i").count()).toBe(0);
    expect(await page.locator("#next-credits").count()).toBe(0);
    expect(await page.locator('article.card.succeeded[data-step="clips"]').count()).toBe(2);
  });

  it("shows a rejected run as rejected, with the rejection", async () => {
    const second = await service.run(fixture("gate.yaml"));
    await decideApproval(second.runDir, { approved: false, by: "bo", note: "too dark" });
    const ended = await runPipeline(undefined, {
      client: service.client,
      resume: second.runDir,
      cache: false,
    });
    expect(ended.status).toBe("rejected");
    const { file } = await writeReport(second.runDir);
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    expect(await page.locator("#run-status").textContent()).toBe("rejected");
    expect(await page.locator(".status-line").textContent()).toContain("rejected by bo");
    const gate = page.locator('article.gate[data-step="review"]');
    expect(await gate.locator(".badge").textContent()).toBe("rejected");
    expect(await gate.locator(".note-text").textContent()).toBe("too dark");
  });
});
