import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type BatchResult, runBatch } from "@reelsmith/runner/batch";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBatchReport } from "../src/batch/write-batch-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { type FixtureService, fixture, startFixtureService } from "./helpers/run-fixture.js";

const HOSTILE = `<img src=x onerror="window.__pwned = 1"> #fail`;

describe("batch.html of a real batch, in headless Chromium", () => {
  let service: FixtureService;
  let browser: Browser;
  let page: Page;
  let batch: BatchResult;
  const requests: string[] = [];

  beforeAll(async () => {
    service = await startFixtureService();
    const rows = join(service.root, "rows.csv");
    writeFileSync(
      rows,
      `id,subject\nkite,a red kite over the sea\nstorm,"${HOSTILE.replace(/"/g, '""')}"\nboat,a paper boat in the rain\n`,
    );
    batch = await runBatch(fixture("batch.yaml"), rows, {
      client: service.client,
      runsRoot: join(service.root, "runs"),
      cacheDir: join(service.root, "cache"),
      cache: false,
      parallel: 2,
    });
    const { file } = await writeBatchReport(batch.batchDir);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("shows one row per input, failures first, with status, cost and duration", async () => {
    expect(batch.status).toBe("failed");
    const rows = page.locator("tr.row");
    expect(await rows.count()).toBe(3);
    expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-row")))).toEqual(
      ["storm", "kite", "boat"],
    );
    const storm = page.locator('tr.row[data-row="storm"]');
    expect(await storm.locator(".badge").textContent()).toBe("failed");
    expect(await storm.locator(".error").textContent()).toMatch(/#fail/);
    for (const id of ["kite", "boat"]) {
      const row = page.locator(`tr.row[data-row="${id}"]`);
      expect(await row.locator(".badge").textContent()).toBe("succeeded");
      const state = batch.rows.find((r) => r.id === id);
      expect(await row.locator(".credits").textContent()).toBe(String(state?.credits));
      expect(Number(state?.credits)).toBeGreaterThan(0);
      expect(await row.locator(".duration").textContent()).toMatch(/\d/);
    }
    expect(await page.locator("#batch-credits").textContent()).toBe(String(batch.credits));
  });

  it("shows each final video's poster frame and links each row to its run's report", async () => {
    for (const id of ["kite", "boat"]) {
      const poster = page.locator(`tr.row[data-row="${id}"] img.poster`);
      await poster.waitFor();
      const width = await poster.evaluate((img) => (img as HTMLImageElement).naturalWidth);
      expect(width).toBeGreaterThan(0);
      const href = await page.locator(`tr.row[data-row="${id}"] a.run-report`).getAttribute("href");
      expect(href).toBe(`rows/${id}/report.html`);
      expect(existsSync(join(batch.batchDir, String(href)))).toBe(true);
    }
    // The failed row's own report says why, too.
    expect(await page.locator('tr.row[data-row="storm"] a.run-report').count()).toBe(1);
    expect(await page.locator('tr.row[data-row="storm"] img.poster').count()).toBe(0);
  });

  it("runs no injected markup and loads nothing from the network", async () => {
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("img[src=x]").count()).toBe(0);
    const csp = await page
      .locator('meta[http-equiv="Content-Security-Policy"]')
      .getAttribute("content");
    expect(csp).toMatch(/default-src 'none'/);
    expect(requests.every((url) => url.startsWith("file:"))).toBe(true);
    expect(fileURLToPath(requests[0] ?? "")).toBe(join(batch.batchDir, "batch.html"));
  });
});
