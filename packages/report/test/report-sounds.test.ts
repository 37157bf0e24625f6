import { pathToFileURL } from "node:url";
import { speechModels, transcriptionModels } from "@reelsmith/simulator/catalog";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { type FixtureService, fixture, startFixtureService } from "./helpers/run-fixture.js";

describe("the report of a run that spoke a narration per scene, in headless Chromium", () => {
  let service: FixtureService;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    service = await startFixtureService();
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("plays each narration: one player per scene, each loading its sound", async () => {
    const run = await service.run(fixture("narration.yaml"), {
      catalogs: { speech_models: speechModels, transcription_models: transcriptionModels },
    });
    expect(run.status).toBe("succeeded");
    const { file, model } = await writeReport(run.runDir);
    expect(model.madeSounds.map((entry) => [entry.step, entry.files.length])).toEqual([
      ["narration", 2],
    ]);
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    const players = page.locator("#sounds audio");
    expect(await players.count()).toBe(2);
    // The browser reads each sound: its length is known once its metadata loads.
    const durations = await players.evaluateAll((elements) =>
      Promise.all(
        (elements as HTMLAudioElement[]).map(
          (audio) =>
            new Promise<number>((resolve, reject) => {
              audio.addEventListener("loadedmetadata", () => resolve(audio.duration), {
                once: true,
              });
              audio.addEventListener("error", () => reject(new Error(audio.src)), { once: true });
              audio.preload = "metadata";
              audio.load();
            }),
        ),
      ),
    );
    for (const duration of durations) expect(duration).toBeGreaterThan(0.5);
  });
});
