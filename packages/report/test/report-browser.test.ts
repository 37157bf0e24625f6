import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { probe } from "@reelsmith/media";
import type { RunResult } from "@reelsmith/runner";
import { readEventLog, readJournal } from "@reelsmith/runner/runs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { type FixtureService, fixture, startFixtureService } from "./helpers/run-fixture.js";

const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> & a 'quoted' "title"`;

describe("report.html of a real run, in headless Chromium", () => {
  let service: FixtureService;
  let browser: Browser;
  let page: Page;
  let result: RunResult;
  let html: string;
  const requests: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    service = await startFixtureService();
    // The key must never reach the page, even when a careless input carries it.
    result = await service.run(fixture("report.yaml"), {
      inputs: { note: `do not publish ${service.simulator.apiKey}` },
    });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const written = await writeReport(result.runDir, { secrets: [service.simulator.apiKey] });
    html = readFileSync(written.file, "utf8");
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("request", (request) => requests.push(request.url()));
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(written.file).href, { waitUntil: "load" });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("shows one card per clip with its evaluated prompt, job id, credits and poster frame", async () => {
    expect(await page.locator("article.card").count()).toBe(4);
    const cards = page.locator('article.card[data-step="clips"]');
    expect(await cards.count()).toBe(3);
    const requests = readEventLog(join(result.runDir, "events.ndjson")).filter(
      (event) => event.type === "step.request" && event.step === "clips",
    );
    const clips = result.steps.clips?.outputs as { id: string; credits: number }[];
    for (const event of requests) {
      if (event.type !== "step.request") continue;
      const card = page.locator(`article.card[data-step="clips"][data-index="${event.index}"]`);
      expect(await card.locator(".prompt").textContent()).toBe(String(event.spec.prompt));
      expect(String(event.spec.prompt)).toMatch(/^Scene \d: \S/);
      const clip = clips[event.index ?? -1];
      expect(await card.locator("dd.mono").textContent()).toBe(clip?.id);
      expect(await card.locator("dd.credits").textContent()).toBe(String(clip?.credits));
      const thumb = card.locator("img.thumb");
      await thumb.scrollIntoViewIfNeeded();
      await expect
        .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBe(240);
    }
    // Poster frames are small JPEGs made by ffmpeg, not full frames.
    const thumbs = join(result.runDir, "report", "thumbs");
    for (const name of readdirSync(thumbs)) {
      if (name.startsWith("clips-")) expect(statSync(join(thumbs, name)).size).toBeLessThan(16_000);
    }
  });

  it("plays a clip: opening its card's player makes a <video> that loads the clip's duration", async () => {
    const file = join(result.runDir, "clips", "scene-1.mp4");
    const expected = (await probe(file)).duration;
    const card = page.locator('article.card[data-step="clips"][data-index="1"]');
    // No idle players: a card's <video> exists once its player is opened.
    expect(await page.locator("article.card video").count()).toBe(0);
    await card.locator("summary").click();
    const video = card.locator("video");
    await video.waitFor({ state: "attached" });
    expect(await video.getAttribute("src")).toBe("clips/scene-1.mp4");
    const duration = await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<number>((resolve, reject) => {
          if (element.readyState >= 1) resolve(element.duration);
          element.addEventListener("loadedmetadata", () => resolve(element.duration), {
            once: true,
          });
          element.addEventListener("error", () => reject(new Error("video error")), {
            once: true,
          });
        }),
    );
    expect(duration).toBeCloseTo(expected, 1);
    expect(await page.locator("article.card video").count()).toBe(1);
  });

  it("draws one timeline bar per item and per step, with phases", async () => {
    expect(await page.locator('svg.gantt g.bar[data-step="clips"]').count()).toBe(3);
    for (const step of ["storyboard", "hostile", "extra", "final", "sheet"]) {
      expect(await page.locator(`svg.gantt g.bar[data-step="${step}"]`).count()).toBe(1);
    }
    expect(await page.locator("svg.gantt g.bar").count()).toBe(8);
    const clipPhases = page.locator('svg.gantt g.bar[data-step="clips"] rect');
    const classes = await clipPhases.evaluateAll((rects) =>
      rects.map((r) => r.getAttribute("class")),
    );
    expect(classes).toContain("p-waiting");
    expect(classes).toContain("p-submitted");
    expect(classes).toContain("p-downloading");
    expect(await page.locator('svg.gantt g.bar[data-step="final"] rect.p-ffmpeg').count()).toBe(1);
    expect(await page.locator('svg.gantt g.bar[data-step="storyboard"] rect.p-chat').count()).toBe(
      1,
    );
  });

  it("totals match the journal, the service's charges and the sub-pipeline's own run", async () => {
    const cell = async (row: string, column: number) =>
      Number(await page.locator(`${row} td.num`).nth(column).textContent());
    // Numeric columns: time, made ("1 video"), spent, saved, estimated, prompt, completion, total tokens.
    const journal = readJournal(join(result.runDir, "journal.jsonl"));
    const clipCredits = journal
      .filter((record) => record.type === "item.end" && record.step === "clips")
      .reduce((sum, record) => sum + Number((record.totals as { credits: number }).credits), 0);
    expect(clipCredits).toBeGreaterThan(0);
    expect(await cell('tr.step[data-step="clips"]', 2)).toBe(clipCredits);
    const subRuns = readdirSync(join(result.runDir, "subruns"));
    expect(subRuns).toHaveLength(1);
    const subRun = JSON.parse(
      readFileSync(join(result.runDir, "subruns", subRuns[0] as string, "run.json"), "utf8"),
    ) as { totals: { credits: number } };
    expect(subRun.totals.credits).toBeGreaterThan(0);
    expect(await cell('tr.step[data-step="extra"]', 2)).toBe(subRun.totals.credits);
    const text = async (row: string, column: number) =>
      await page.locator(`${row} td.num`).nth(column).textContent();
    expect(await text('tr.step[data-step="extra"]', 1)).toBe("1 video");
    expect(await page.locator("tr.sub").count()).toBe(1);
    // The sub-run has a report of its own, linked from its row.
    const link = await page.locator("tr.sub a").getAttribute("href");
    expect(link).toBe(`subruns/${subRuns[0]}/report.html`);
    expect(statSync(join(result.runDir, String(link))).size).toBeGreaterThan(1000);
    const charged = service.simulator.stats().creditsCharged;
    expect(await cell("tfoot tr.total", 2)).toBe(charged);
    expect(result.totals.credits).toBe(charged);
    expect(await text("tfoot tr.total", 1)).toBe("5 videos");
    expect(await cell("tfoot tr.total", 3)).toBe(0);
    expect(await cell("tfoot tr.total", 7)).toBe(result.totals.totalTokens);
    // The header says the same as the table and the service.
    expect(Number(await page.locator("#spent-credits").textContent())).toBe(charged);
  });

  it("shows a hostile prompt as text and runs nothing from it", async () => {
    const prompt = page.locator('article.card[data-step="hostile"] .prompt');
    expect(await prompt.textContent()).toBe(HOSTILE);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    // The page's own script is the only one, and only it may run (by its hash).
    expect(await page.locator("script").count()).toBe(1);
    expect(dialogs).toEqual([]);
    const policy = await page
      .locator('meta[http-equiv="Content-Security-Policy"]')
      .getAttribute("content");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(policy).not.toContain("unsafe-inline");
  });

  it("collapses chat steps, with their tool calls and JSON output", async () => {
    const chats = page.locator("details.chat");
    expect(await chats.count()).toBe(2);
    expect(await chats.evaluateAll((all) => all.filter((d) => d.hasAttribute("open")).length)).toBe(
      0,
    );
    const extra = page.locator('details.chat[data-step="extra"]');
    expect(await extra.locator(".tool-call b").first().textContent()).toBe("title_card");
    expect(await page.locator('details.chat[data-step="storyboard"] details.json').count()).toBe(1);
  });

  it("sends no request outside the run directory and never contains the API key", async () => {
    expect(requests.length).toBeGreaterThan(1);
    const own = pathToFileURL(result.runDir).href;
    for (const url of requests) expect(url.startsWith(`${own}/`)).toBe(true);
    expect(html).not.toContain(service.simulator.apiKey);
    expect(html).toContain("do not publish [redacted]");
  });
});
