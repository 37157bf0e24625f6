// How fast a large run's report renders in the browser: a real N-scene run on the simulator
// (default 500 scenes), its report written, then opened from file:// in headless Chromium.
// Usage: node bench/render.mjs [scenes]   (after `pnpm build`; takes minutes: N real clips)
//        node bench/render.mjs <run-dir>  (measure the report of an existing run directory)
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createClient } from "@reelsmith/core";
import { runPipeline } from "@reelsmith/runner";
import { startSimulator } from "@reelsmith/simulator";
import chromium from "@sparticuz/chromium";
import { chromium as playwright } from "playwright-core";
import { writeReport } from "../dist/index.js";

const argument = process.argv[2] ?? "500";
const given = existsSync(argument) ? argument : undefined;
const scenes = given ? undefined : Number(argument);
let runMs;
let runDir = given;
if (!runDir) {
  const root = mkdtempSync(join(tmpdir(), "reelsmith-report-bench-"));
  const simulator = await startSimulator({ timeScale: 0.001, renderConcurrency: 4 });
  const client = createClient({
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs: 10,
  });
  const pipeline = {
    name: "report-bench",
    defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "854x480" } },
    steps: [
      {
        id: "clips",
        for_each: Array.from({ length: scenes }, (_, i) => `Scene ${i}: a paper boat, frame ${i}`),
        max_parallel: 16,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: pipeline expressions, not JS templates
        video: { prompt: "${{ item }}", output: "clips/scene-${{ index }}.mp4" },
      },
    ],
  };
  const started = Date.now();
  const result = await runPipeline(pipeline, {
    client,
    runsRoot: join(root, "runs"),
    cacheDir: join(root, "cache"),
    cache: false,
    maxVideos: 16,
    concurrency: 16,
  });
  runMs = Date.now() - started;
  await simulator.close();
  if (result.status !== "succeeded")
    throw new Error(`run ${result.status}: ${result.error?.message}`);
  runDir = result.runDir;
}

let started = Date.now();
const first = await writeReport(runDir);
const firstMs = Date.now() - started;
started = Date.now();
await writeReport(runDir);
const againMs = Date.now() - started;
const html = readFileSync(first.file);
const thumbBytes = first.model.cards.map((card) =>
  card.thumbnail ? statSync(join(runDir, card.thumbnail.relative)).size : 0,
);

const loads = [];
for (let round = 0; round < 3; round++) {
  // A browser per round: @sparticuz/chromium runs single-process, so a closed page ends it.
  const browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: [
      ...chromium.args.filter((flag) => flag !== "--disable-web-security"),
      "--disable-background-networking",
    ],
    headless: true,
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const wall = Date.now();
  await page.goto(pathToFileURL(first.file).href, { waitUntil: "load" });
  // Wait for a frame after load: layout and paint of the whole page are done then.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  const wallMs = Date.now() - wall;
  const timing = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType("navigation");
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    return {
      domContentLoaded: Math.round(navigation.domContentLoadedEventEnd),
      load: Math.round(navigation.loadEventEnd),
      firstContentfulPaint: paint ? Math.round(paint.startTime) : null,
      cards: document.querySelectorAll("article.card").length,
      bars: document.querySelectorAll("svg.gantt g.bar").length,
    };
  });
  loads.push({ ...timing, wallMs });
  await browser.close();
}
console.log(
  JSON.stringify(
    {
      scenes: first.model.cards.length,
      runMs,
      writeReportMs: { first: firstMs, again: againMs },
      htmlBytes: html.length,
      thumbnails: {
        count: thumbBytes.filter(Boolean).length,
        averageBytes: Math.round(thumbBytes.reduce((a, b) => a + b, 0) / thumbBytes.length),
        maxBytes: Math.max(...thumbBytes),
      },
      browser: loads,
      node: process.version,
    },
    null,
    2,
  ),
);
