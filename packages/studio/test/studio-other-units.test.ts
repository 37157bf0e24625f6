import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { modelCatalogsFromProfile, modelPriceUnits, parseProfile } from "@reelsmith/core/profile";
import type { RunResult } from "@reelsmith/runner";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./helpers/browser.js";
import { type StudioFixture, startStudioFixture } from "./helpers/studio-fixture.js";

/** A keyframe model in credits, and posters from an account billing in dollars with no rate. */
const profile = {
  providers: { dollars: { dialect: "reference", api_key_env: ["DOLLARS_KEY"], unit: "usd" } },
  image_models: {
    "reel-image-1": { sizes: ["256x256"], price: { per_image: 4 } },
    "dollar-image": { provider: "dollars", sizes: ["256x256"], price: { per_image: 0.05 } },
  },
};
const PIPELINE = `name: dollars
steps:
  - id: keyframe
    image: { model: reel-image-1, prompt: a lighthouse at dusk, size: 256x256 }
  - id: posters
    image: { model: dollar-image, prompt: a lighthouse poster, size: 256x256, n: 3 }
`;
/** The words of the CLI's closing table for the three posters. */
const WORDS = "and 0.15 usd spent, not in credits (a provider's unit with no credits_per_unit)";

describe("the studio shows what a run spent in dollars beside its credits (headless Chromium)", () => {
  let fixture: StudioFixture;
  let browser: Browser;
  let page: Page;
  let result: RunResult;

  beforeAll(async () => {
    fixture = await startStudioFixture({ profile });
    const pipeline = join(fixture.root, "dollars.yaml");
    writeFileSync(pipeline, PIPELINE);
    const parsed = parseProfile(profile);
    result = await fixture.run(pipeline, {
      catalogs: { ...modelCatalogsFromProfile(parsed), price_units: modelPriceUnits(parsed) },
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(fixture.studio.loginUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  it("in the runs list and on the run's page, in the closing table's words", async () => {
    expect(result.status).toBe("succeeded");
    expect(result.totals).toMatchObject({ credits: 4, otherUnits: { usd: 0.15 } });
    const name = result.runDir.split("/").at(-1) ?? "";
    const row = page.locator(`tr[data-run="${name}"]`);
    await row.waitFor();
    expect(await row.locator(".spent .other-units").textContent()).toBe(WORDS);
    await page.goto(`${fixture.studio.url}/runs/${encodeURIComponent(name)}/`);
    const words = page.locator("#costs p.other-units");
    await words.waitFor();
    expect(await words.textContent()).toBe(WORDS);
    expect(await page.locator("#costs tfoot tr.total td.spent").textContent()).toBe("4 + 0.15 usd");
  });
});
