import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pickTake, type RunResult, retakeItem } from "@reelsmith/runner";
import { ledgerOf, readJournal } from "@reelsmith/runner/runs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { type FixtureService, fixture, startFixtureService } from "./helpers/run-fixture.js";

const NEW_PROMPT = "Scene 1: a kite caught in a <storm> & rain";

describe("the takes of a retaken clip in report.html, in headless Chromium", () => {
  let service: FixtureService;
  let browser: Browser;
  let page: Page;
  let result: RunResult;

  const open = async () => {
    const written = await writeReport(result.runDir);
    await page.goto(pathToFileURL(written.file).href, { waitUntil: "load" });
  };
  const card = () => page.locator('article.card[data-step="clips"][data-index="1"]');

  beforeAll(async () => {
    service = await startFixtureService();
    result = await service.run(fixture("takes.yaml"));
    expect(result.status).toBe("succeeded");
    const options = { client: service.client, cacheDir: join(service.root, "cache") };
    const retaken = await retakeItem(
      result.runDir,
      { step: "clips", index: 1, prompt: NEW_PROMPT },
      options,
    );
    expect(retaken.status).toBe("succeeded");
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await open();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("shows both takes side by side: poster frame, prompt, cost, and which one is picked", async () => {
    const takes = card().locator("figure.take");
    expect(await takes.count()).toBe(2);
    // Cards that were not retaken show no takes.
    expect(await page.locator('article.card[data-index="0"] figure.take').count()).toBe(0);
    const first = card().locator('figure.take[data-take="1"]');
    const second = card().locator('figure.take[data-take="2"]');
    expect(await first.locator(".take-prompt").textContent()).toMatch(
      /^Scene 1: a kite above the sea$/,
    );
    expect(await second.locator(".take-prompt").textContent()).toBe(NEW_PROMPT);
    expect(await second.getAttribute("class")).toContain("picked");
    expect(await second.locator(".badge.picked").count()).toBe(1);
    expect(await first.locator(".badge.picked").count()).toBe(0);
    // The card's own prompt is the picked take's.
    expect(await card().locator(".prompt").textContent()).toBe(NEW_PROMPT);
    // Each take's cost is the ledger's figure for it.
    const ledger = ledgerOf(readJournal(join(result.runDir, "journal.jsonl")));
    for (const [take, figure] of [
      [first, ledger.takes["clips#1@1"]?.credits],
      [second, ledger.takes["clips#1@2"]?.credits],
    ] as const) {
      expect(figure).toBeGreaterThan(0);
      expect(await take.locator(".credits").textContent()).toBe(`${figure} credits`);
    }
    // Both poster frames load, and each take links its own kept file.
    for (const take of [first, second]) {
      const thumb = take.locator("img.thumb");
      await expect
        .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    }
    expect(await first.locator("a.file").textContent()).toBe("clips/scene-1.take-1.mp4");
    expect(await second.locator("a.file").textContent()).toBe("clips/scene-1.take-2.mp4");
    // The new prompt's markup is text, never markup.
    expect(await second.locator(".take-prompt *").count()).toBe(0);
  });

  it("counts attempts per take: a retake that worked at once is 1 attempt, not 2", async () => {
    const first = card().locator('figure.take[data-take="1"]');
    const second = card().locator('figure.take[data-take="2"]');
    expect(await first.locator(".attempts").textContent()).toBe("1 attempt");
    expect(await second.locator(".attempts").textContent()).toBe("1 attempt");
    const shown = card().locator("dt", { hasText: "attempts" });
    expect(await shown.textContent()).toBe("attempts (this take)");
    expect(await shown.locator("+ dd").textContent()).toBe("1");
  });

  it("shows take 1 picked after `pick`", async () => {
    const picked = await pickTake(
      result.runDir,
      { step: "clips", index: 1, take: 1 },
      { client: service.client, cacheDir: join(service.root, "cache") },
    );
    expect(picked.status).toBe("succeeded");
    await open();
    expect(await card().locator('figure.take[data-take="1"] .badge.picked').count()).toBe(1);
    expect(await card().locator('figure.take[data-take="2"] .badge.picked').count()).toBe(0);
    expect(await card().locator(".prompt").textContent()).toBe("Scene 1: a kite above the sea");
  });
});
