import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./helpers/browser.js";
import { example, type StudioFixture, startStudioFixture } from "./helpers/studio-fixture.js";

describe("cancelling a session the studio started, in headless Chromium", () => {
  let fixture: StudioFixture;
  let browser: Browser;
  let page: Page;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    // Each session waits here until the test lets it go on: it is going while the page acts.
    fixture = await startStudioFixture({ beforeSession: () => held });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(fixture.studio.loginUrl);
  });
  afterAll(async () => {
    release();
    await browser?.close();
    await fixture?.close();
  });

  it("stops the resumed run gently: it ends cancelled, and no clip is paid for", async () => {
    const waiting = await fixture.run(example("storyboard", "approve.yaml"), {
      inputs: { scenes: 2 },
    });
    expect(waiting.status).toBe("waiting");
    const jobs = fixture.simulator.stats().videoJobs.created;
    await page.goto(`${fixture.studio.url}/runs/${waiting.runDir.split("/").at(-1)}/`);
    await page
      .locator('.gate-actions[data-step="review"]')
      .getByRole("button", { name: "Approve" })
      .click();
    await page.locator("#confirm-ok").click();
    // The session is going (held): the page offers Cancel and no other action.
    const cancel = page.locator('form[data-action="cancel"] button');
    await cancel.waitFor();
    expect(
      await page.locator('form[data-action="retake"], form[data-action="resume"]').count(),
    ).toBe(0);
    await cancel.click();
    expect(await page.locator("#confirm-price").textContent()).toBe("costs 0 credits");
    await page.locator("#confirm-ok").click();
    await page.locator("#live-state", { hasText: "stopping" }).waitFor();
    release();
    await page.locator("#session-state", { hasText: "last resume: cancelled" }).waitFor({
      timeout: 120_000,
    });
    expect(fixture.simulator.stats().videoJobs.created - jobs).toBe(0);
    // The gate's approval stays journaled: resuming goes on from it (offered, with its price).
    expect(await page.locator('article.gate[data-step="review"] .badge').textContent()).toBe(
      "approved",
    );
    await page.locator('form[data-action="resume"]').waitFor();
  });
});
