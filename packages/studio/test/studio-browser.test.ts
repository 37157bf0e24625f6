import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { RunResult } from "@reelsmith/runner";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./helpers/browser.js";
import { example, type StudioFixture, startStudioFixture } from "./helpers/studio-fixture.js";

/** Where the README's pictures go when STUDIO_SCREENSHOTS is set (`docs/` of the repository). */
const SHOTS = process.env.STUDIO_SCREENSHOTS;

describe("the studio in headless Chromium, against the simulator", () => {
  let fixture: StudioFixture;
  let browser: Browser;
  let page: Page;
  let waiting: RunResult;

  const runPage = () => `${fixture.studio.url}/runs/${encodeURIComponent(name())}/`;
  const name = () => waiting.runDir.split("/").at(-1) ?? "";
  const card = (index: number) =>
    page.locator(`article.card[data-step="clips"][data-index="${index}"]`);
  const videoJobs = () => fixture.simulator.stats().videoJobs.created;
  /** Confirms the dialog an action opens and returns the price it showed. */
  const confirm = async () => {
    const dialog = page.locator("dialog#confirm");
    await dialog.waitFor({ state: "visible" });
    const price = (await page.locator("#confirm-price").textContent()) ?? "";
    await page.locator("#confirm-ok").click();
    return price;
  };
  /** The bytes of a picture the page shows, fetched again from the studio. */
  const picture = async (selector: string) => {
    const source = await page.locator(selector).first().getAttribute("src");
    const answer = await page.request.get(new URL(source ?? "", page.url()).href);
    expect(answer.status()).toBe(200);
    return Buffer.from(await answer.body());
  };
  /** The card's own poster is the picked take's (made from the same clip). */
  const posterIsTake = async (index: number, take: number) => {
    const card = `article.card[data-step="clips"][data-index="${index}"]`;
    return (await picture(`${card} > img.thumb`)).equals(
      await picture(`${card} figure.take[data-take="${take}"] img.thumb`),
    );
  };
  const sessionEnded = (text: string) =>
    page.locator("#session-state", { hasText: text }).waitFor({ timeout: 120_000 });

  beforeAll(async () => {
    fixture = await startStudioFixture();
    waiting = await fixture.run(example("storyboard", "approve.yaml"), { inputs: { scenes: 2 } });
    expect(waiting.status).toBe("waiting");
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The printed address: its token becomes a cookie and leaves the address bar.
    await page.goto(fixture.studio.loginUrl);
    expect(page.url()).toBe(`${fixture.studio.url}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  it("lists the run with its status, spent credits, estimate and pipeline", async () => {
    const row = page.locator(`tr[data-run="${name()}"]`);
    await row.waitFor();
    expect(await row.locator(".badge").textContent()).toBe("waiting");
    expect(await row.textContent()).toContain("storyboard-approved");
    expect(Number(await row.locator(".spent").textContent())).toBe(waiting.totals.credits);
    expect(await row.locator(".estimate").textContent()).toMatch(/^\d+(\.\d+)?\+?$/);
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    expect(await page.content()).not.toContain(fixture.simulator.apiKey);
    expect(await page.content()).not.toContain(fixture.studio.token);
  });

  it("approves the waiting gate, showing its price first; the run goes on to its final video", async () => {
    await page.goto(runPage());
    const gate = page.locator('.gate-actions[data-step="review"]');
    await gate.waitFor();
    expect(await page.locator('article.gate[data-step="review"] .badge').textContent()).toBe(
      "waiting",
    );
    const next = (await page.locator("#next-credits").textContent()) ?? "";
    if (SHOTS) await page.screenshot({ path: join(SHOTS, "studio-run-gate.png"), fullPage: true });
    await gate.locator("input[name=note]").fill("scenes read");
    await gate.getByRole("button", { name: "Approve" }).click();
    expect(await confirm()).toBe(`costs ${next} credits`);
    // Page state, not time: the final video appears once the resumed run has finished.
    await page.locator("video.final").waitFor({ timeout: 120_000 });
    await sessionEnded("last resume: succeeded");
    expect(await page.locator("#run-status").textContent()).toBe("succeeded");
    expect(await page.locator('article.gate[data-step="review"] .note-text').textContent()).toBe(
      "scenes read",
    );
    expect(await page.locator('article.gate[data-step="review"] .decided-by').textContent()).toBe(
      "reviewer",
    );
    expect(await page.locator("#progress li").count()).toBeGreaterThan(0);
  });

  it("retakes one scene with a new prompt: exactly one new job, the new take beside the old", async () => {
    const before = videoJobs();
    await card(1).locator("details.retake summary").click();
    const form = card(1).locator('form[data-action="retake"]');
    await form.locator("textarea[name=prompt]").fill("Scene 1: the boat, from above, at dusk");
    await form.locator("input[name=seed]").fill("7");
    await form.locator("button").click();
    const price = await confirm();
    expect(price).toMatch(/^costs \d+(\.\d+)? credits$/);
    await sessionEnded("last retake: succeeded");
    await card(1).locator("figure.take").nth(1).waitFor();
    expect(videoJobs() - before).toBe(1);
    expect(await card(1).locator("figure.take").count()).toBe(2);
    expect(await card(1).locator('figure.take[data-take="2"]').getAttribute("class")).toContain(
      "picked",
    );
    // The price shown before is what the new take cost, as the run's ledger says.
    expect(await card(1).locator('figure.take[data-take="2"] .credits').textContent()).toBe(
      price.replace(/^costs /, ""),
    );
    expect(await card(1).locator('figure.take[data-take="2"] .take-prompt').textContent()).toBe(
      "Scene 1: the boat, from above, at dusk",
    );
    // The other scene was not retaken.
    expect(await card(0).locator("figure.take").count()).toBe(0);
    expect(await posterIsTake(1, 2)).toBe(true);
    expect(await posterIsTake(1, 1)).toBe(false);
    if (SHOTS)
      await page.locator("#storyboard").screenshot({ path: join(SHOTS, "studio-takes.png") });
  });

  it("picks the old take back for nothing: no job", async () => {
    const before = videoJobs();
    await card(1).locator('form[data-action="pick"][data-take="1"] button').click();
    expect(await confirm()).toBe("costs 0 credits");
    await sessionEnded("last pick: succeeded");
    await card(1).locator('figure.take.picked[data-take="1"]').waitFor();
    expect(videoJobs() - before).toBe(0);
    expect(await posterIsTake(1, 1)).toBe(true);
    expect(await page.locator("#run-status").textContent()).toBe("succeeded");
  });

  it("keeps the runs list live: a run started elsewhere appears, with its status, without a reload", async () => {
    await page.goto(`${fixture.studio.url}/`);
    await page.locator("#live-state", { hasText: "live" }).waitFor();
    const other = await fixture.run(example("storyboard", "approve.yaml"), {
      inputs: { scenes: 1 },
    });
    const row = page.locator(`tr[data-run="${other.runDir.split("/").at(-1)}"]`);
    await row.locator(".badge", { hasText: "waiting" }).waitFor({ timeout: 120_000 });
    expect(await page.locator(`tr[data-run="${name()}"] .badge`).textContent()).toBe("succeeded");
    if (SHOTS) await page.screenshot({ path: join(SHOTS, "studio-runs.png"), fullPage: true });
  });
});
