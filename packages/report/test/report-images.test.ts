import { pathToFileURL } from "node:url";
import type { RunResult } from "@reelsmith/runner";
import { imageModels } from "@reelsmith/simulator/catalog";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { type FixtureService, fixture, startFixtureService } from "./helpers/run-fixture.js";

describe("the report of a run that made images, waiting at a gate on its keyframes, in headless Chromium", () => {
  let service: FixtureService;
  let browser: Browser;
  let page: Page;
  let waiting: RunResult;
  beforeAll(async () => {
    service = await startFixtureService();
    browser = await launchBrowser();
    page = await browser.newPage();
    waiting = await service.run(fixture("keyframes.yaml"), {
      catalogs: { image_models: imageModels },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("shows the gate's keyframes as thumbnails (loaded pictures), and a value that is not one as text", async () => {
    expect(waiting.status).toBe("waiting");
    const { file, model } = await writeReport(waiting.runDir);
    expect(model.approvals[0]?.showImages).toEqual([
      [
        { relative: "keyframes/scene-0.png", exists: true },
        { relative: "keyframes/scene-1.png", exists: true },
      ],
      undefined,
    ]);
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    const gate = page.locator('article.gate[data-step="review"]');
    const thumbs = gate.locator("img.thumb");
    expect(await thumbs.count()).toBe(2);
    expect(await thumbs.nth(1).getAttribute("src")).toBe("keyframes/scene-1.png");
    // Each picture is really drawn: the browser decoded it at the size the step asked for.
    const sizes = await thumbs.evaluateAll((images) =>
      (images as HTMLImageElement[]).map((image) => [image.naturalWidth, image.naturalHeight]),
    );
    expect(sizes).toEqual([
      [256, 256],
      [256, 256],
    ]);
    expect(await gate.locator("details.shown pre").textContent()).toContain(
      "a note that is not a picture",
    );
    // No clip was paid for before the decision.
    expect(service.simulator.stats().videoJobs.created).toBe(0);
  });

  it("shows every image the media steps made, step by step: the character sheets and the keyframes", async () => {
    const { file, model } = await writeReport(waiting.runDir);
    expect(model.madeImages.map((entry) => [entry.step, entry.files.length])).toEqual([
      ["characters", 2],
      ["keyframes", 2],
    ]);
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    const characters = page.locator('#images .made[data-step="characters"] img.thumb');
    expect(await characters.count()).toBe(2);
    const loaded = await page
      .locator("#images img.thumb")
      .evaluateAll((images) =>
        (images as HTMLImageElement[]).every((image) => image.complete && image.naturalWidth > 0),
      );
    expect(loaded).toBe(true);
    await page.screenshot({ path: `${waiting.runDir}/report-images.png`, fullPage: true });
  });
});
