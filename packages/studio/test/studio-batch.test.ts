import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BatchResult, runBatch } from "@reelsmith/runner/batch";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./helpers/browser.js";
import { example, type StudioFixture, startStudioFixture } from "./helpers/studio-fixture.js";

describe("the studio's batches in headless Chromium, against the simulator", () => {
  let fixture: StudioFixture;
  let browser: Browser;
  let page: Page;
  let batch: BatchResult;
  const name = () => batch.batchDir.split("/").at(-1) ?? "";

  beforeAll(async () => {
    fixture = await startStudioFixture();
    const rows = join(fixture.root, "stories.jsonl");
    writeFileSync(
      rows,
      [
        { id: "boat", story: "A paper boat sails down a rainy gutter.", scenes: 1 },
        { id: "kite", story: "A red kite escapes over the dunes.", scenes: 1, style: "#fail" },
      ]
        .map((row) => JSON.stringify(row))
        .join("\n"),
    );
    batch = await runBatch(example("storyboard", "pipeline.yaml"), rows, {
      client: fixture.client,
      runsRoot: fixture.runsDir,
      cache: false,
    });
    expect(batch.status).toBe("failed");
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(fixture.studio.loginUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  it("lists the batch beside the runs, with its status, rows and credits", async () => {
    const line = page.locator(`tr[data-batch="${name()}"]`);
    await line.waitFor();
    expect(await line.locator(".badge").textContent()).toBe("failed");
    expect(await line.locator(".rows").textContent()).toBe("2");
    expect(await line.locator(".counts").textContent()).toBe("1 succeeded, 1 failed");
    expect(Number(await line.locator(".spent").textContent())).toBe(batch.credits);
    // Its rows' runs are the batch's, not lines of their own in the runs list.
    expect(await page.locator("tr[data-run]").count()).toBe(0);
  });

  it("opens the batch's rows, then a row's run and its final video", async () => {
    await page.locator(`tr[data-batch="${name()}"] a`).click();
    await page.locator("#batch").waitFor();
    expect(page.url()).toBe(`${fixture.studio.url}/batches/${name()}/`);
    const kite = page.locator('tr[data-row="kite"]');
    expect(await kite.locator(".badge").textContent()).toBe("failed");
    expect(await kite.locator(".error").textContent()).not.toBe("");
    const boat = page.locator('tr[data-row="boat"]');
    expect(await boat.locator(".badge").textContent()).toBe("succeeded");
    const final = await boat.locator("a.final").getAttribute("href");
    expect(final).toBe(`/runs/${name()}~boat/final.mp4`);
    const video = await page.request.get(new URL(final ?? "", page.url()).href);
    expect(video.status()).toBe(200);
    expect(
      Buffer.from(await video.body())
        .subarray(4, 8)
        .toString("latin1"),
    ).toBe("ftyp");

    await boat.locator("a.run").click();
    await page.locator("#run-status").waitFor();
    expect(page.url()).toBe(`${fixture.studio.url}/runs/${name()}~boat/`);
    expect(await page.locator("#run-status").textContent()).toBe("succeeded");
    await page.locator("video.final").waitFor();
    expect(await page.content()).not.toContain(fixture.simulator.apiKey);
  });

  it("refuses names that leave the batch or name no batch", async () => {
    for (const path of [
      `/runs/${name()}~..%2F..%2Fetc/`,
      `/runs/${name()}~boat~x/`,
      "/runs/not-a-batch~boat/",
      `/batches/${name()}~boat/`,
      "/batches/..%2F/",
    ]) {
      const answer = await page.request.get(`${fixture.studio.url}${path}`);
      expect(answer.status(), path).toBe(404);
    }
  });
});
