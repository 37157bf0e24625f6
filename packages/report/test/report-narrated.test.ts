import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type RunResult, runPipeline } from "@reelsmith/runner";
import { decideApproval } from "@reelsmith/runner/runs";
import { modelCatalogs } from "@reelsmith/simulator/catalog";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { type FixtureService, startFixtureService } from "./helpers/run-fixture.js";

const EXAMPLE = join(import.meta.dirname, "..", "..", "..", "examples", "narrated");
/** Screenshots of the report, kept for a person to look at (gitignored). */
const ARTIFACTS = join(import.meta.dirname, "artifacts");

/** The narrated example as it is, plus a contact sheet of its clips (a picture taller than wide). */
function narratedWithSheet(root: string): string {
  const dir = join(root, "narrated");
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(EXAMPLE, "music.m4a"), join(dir, "music.m4a"));
  const text = readFileSync(join(EXAMPLE, "pipeline.yaml"), "utf8").replace(
    "\noutputs:\n",
    `
  - id: sheet
    ffmpeg:
      contact_sheet: \${{ steps.fitted.outputs.*.file }}
      columns: 1
      output: contact-sheet.png

outputs:
  sheet: \${{ steps.sheet.outputs.file }}
`,
  );
  const file = join(dir, "pipeline.yaml");
  writeFileSync(file, text);
  return file;
}

describe("the narrated example's report at a laptop's and a phone's size, in headless Chromium", () => {
  let service: FixtureService;
  let browser: Browser;
  // One page throughout: the packaged Chromium runs as one process, which closing its only
  // page would end.
  let page: Page;
  let run: RunResult;
  let reportFile: string;

  beforeAll(async () => {
    service = await startFixtureService();
    const catalogs = modelCatalogs;
    const pipeline = narratedWithSheet(service.root);
    const waiting = await service.run(pipeline, { catalogs });
    expect(waiting.status).toBe("waiting");
    await decideApproval(waiting.runDir, { approved: true, by: "test" });
    run = await runPipeline(undefined, {
      client: service.client,
      resume: waiting.runDir,
      cache: false,
      catalogs,
    });
    expect(run.error).toBeUndefined();
    expect(run.status).toBe("succeeded");
    reportFile = (await writeReport(run.runDir)).file;
    browser = await launchBrowser();
    page = await browser.newPage();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`at ${width}×${height}: no slip in cards, gate, pictures, players or chat`, async () => {
      await page.setViewportSize({ width, height });
      await page.goto(pathToFileURL(reportFile).href, { waitUntil: "load" });

      // Nothing is wider than the screen: a wide table scrolls within its own section.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );

      // Each clip card says the length asked for in words (never an object).
      const facts = await page.locator('article.card[data-step="clips"] .facts').allTextContents();
      expect(facts).toHaveLength(3);
      for (const text of facts) {
        expect(text).not.toContain("object");
        expect(text).toMatch(/^reel-video-2-lite · 854x480 · at least \d+(\.\d+)? s$/);
      }

      // The gate's keyframes are one list of three pictures, said so.
      const gate = page.locator('article.gate[data-step="review"]');
      expect(await gate.locator("details.shown summary").allTextContents()).toEqual(["3 images"]);

      // Each poster fills its card's width: no strip beside it.
      for (const card of await page.locator('article.card[data-step="clips"]').all()) {
        await card.scrollIntoViewIfNeeded();
        const poster = card.locator("img.thumb");
        await expect
          .poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBeGreaterThan(0);
        const sizes = await card.evaluate((article) => {
          const img = article.querySelector("img.thumb") as HTMLImageElement;
          return { card: article.clientWidth, poster: img.getBoundingClientRect().width };
        });
        expect(Math.abs(sizes.card - sizes.poster)).toBeLessThanOrEqual(1);
      }

      // Every picture (keyframes 3:2, the contact sheet taller than wide) is shown whole: its
      // box has the picture's own proportions, so nothing is cropped.
      const pictures = page.locator(".thumbs img.thumb, img.sheet");
      const names = await pictures.evaluateAll((images) =>
        images.map((image) => image.getAttribute("alt")),
      );
      expect(names).toContain("contact-sheet.png");
      for (const picture of await pictures.all()) {
        await picture.scrollIntoViewIfNeeded();
        await expect
          .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBeGreaterThan(0);
        const shape = await picture.evaluate((img: HTMLImageElement) => {
          const box = img.getBoundingClientRect();
          return {
            box: box.width / box.height,
            natural: img.naturalWidth / img.naturalHeight,
            name: img.alt,
          };
        });
        expect(Math.abs(shape.box / shape.natural - 1), shape.name).toBeLessThan(0.03);
      }

      // Both finals' players fit the screen: the 9:16 one too.
      const players = page.locator("video.final");
      expect(await players.count()).toBe(2);
      for (const player of await players.all()) {
        await player.scrollIntoViewIfNeeded();
        await expect
          .poll(() => player.evaluate((video: HTMLVideoElement) => video.readyState))
          .toBeGreaterThanOrEqual(1);
        const fit = await player.evaluate((video: HTMLVideoElement) => ({
          height: video.getBoundingClientRect().height,
          width: video.getBoundingClientRect().width,
          screen: window.innerHeight,
          tall: video.videoHeight > video.videoWidth,
        }));
        expect(fit.height).toBeLessThanOrEqual(fit.screen);
        expect(fit.width).toBeLessThanOrEqual(width);
        if (fit.tall) expect(fit.height).toBeGreaterThan(fit.screen / 3);
      }

      // Far below the first screen, the chat, the timeline and the cards are drawn, not skipped: a
      // full-page screenshot (or a printout) shows them.
      await page.evaluate(() => window.scrollTo(0, 0));
      const drawn = await page.evaluate(() =>
        ["#chats details.chat", "#timeline svg", "article.card"].flatMap((selector) =>
          Array.from(document.querySelectorAll(selector), (element) =>
            element.checkVisibility({ contentVisibilityAuto: true }),
          ),
        ),
      );
      // One chat, the timeline and three cards.
      expect(drawn).toEqual([true, true, true, true, true]);
      const chat = page.locator("#chats details.chat").first();
      expect(await chat.locator("summary").first().textContent()).toContain("storyboard");

      await page.screenshot({
        path: join(ARTIFACTS, `narrated-report-${width}x${height}.png`),
        fullPage: true,
      });
    });
  }
});
