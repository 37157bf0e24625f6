import { pathToFileURL } from "node:url";
import { modelCatalogsFromProfile, modelPriceUnits, parseProfile } from "@reelsmith/core/profile";
import type { RunResult } from "@reelsmith/runner";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { type FixtureService, fixture, startFixtureService } from "./helpers/run-fixture.js";

/** A keyframe model in credits, and posters from an account billing in dollars with no rate. */
const profile = {
  providers: { dollars: { dialect: "reference", api_key_env: ["DOLLARS_KEY"], unit: "usd" } },
  image_models: {
    "reel-image-1": { sizes: ["256x256"], price: { per_image: 4 } },
    "dollar-image": { provider: "dollars", sizes: ["256x256"], price: { per_image: 0.05 } },
  },
};
/** The words of the CLI's closing table for the three posters. */
const WORDS = "and 0.15 usd spent, not in credits (a provider's unit with no credits_per_unit)";

describe("the report of a run that spent dollars apart from its credits, in headless Chromium", () => {
  let service: FixtureService;
  let browser: Browser;
  let page: Page;
  let result: RunResult;
  beforeAll(async () => {
    service = await startFixtureService({ profile });
    const parsed = parseProfile(profile);
    result = await service.run(fixture("dollars.yaml"), {
      catalogs: { ...modelCatalogsFromProfile(parsed), price_units: modelPriceUnits(parsed) },
    });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("shows the dollars beside the credits, in the closing table's words, never added to them", async () => {
    expect(result.status).toBe("succeeded");
    expect(result.totals).toMatchObject({ credits: 4, otherUnits: { usd: 0.15 } });
    const { file } = await writeReport(result.runDir);
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    const costs = page.locator("#costs");
    expect(await costs.locator("p.other-units").textContent()).toBe(WORDS);
    expect(await costs.locator("p.other-units").isVisible()).toBe(true);
    // The total's credits are the keyframe's alone; the posters' dollars sit beside them.
    const spent = (row: string) => costs.locator(`${row} td.spent`).textContent();
    expect(await spent("tfoot tr.total")).toBe("4 + 0.15 usd");
    expect(await spent('tr.step[data-step="posters"]')).toBe("0 + 0.15 usd");
    expect(await spent('tr.step[data-step="keyframe"]')).toBe("4");
    // Its estimate is in dollars too, exactly.
    expect(await costs.locator('tr.step[data-step="posters"] td.estimated').textContent()).toBe(
      "0.15 usd",
    );
    // The run's estimate: its credits, and its dollars beside them.
    expect(await costs.locator("tfoot tr.total td.estimated").textContent()).toBe("4 + 0.15 usd");
    expect(await page.locator("#spent-credits").textContent()).toBe("4");
  });
});
