// A PNG of a report's storyboard (header included), as shown in the README.
// Usage: node scripts/screenshot.mjs <run-dir> <out.png>   (after writeReport / reelsmith report)
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import chromium from "@sparticuz/chromium";
import { chromium as playwright } from "playwright-core";

const [runDir, output] = process.argv.slice(2);
if (!runDir || !output) {
  console.error("usage: node scripts/screenshot.mjs <run-dir> <out.png>");
  process.exit(2);
}
const browser = await playwright.launch({
  executablePath: await chromium.executablePath(),
  args: chromium.args.filter((flag) => flag !== "--disable-web-security"),
  headless: true,
});
const page = await browser.newPage({
  viewport: { width: 1100, height: 800 },
  deviceScaleFactor: 1,
});
await page.emulateMedia({ colorScheme: "light" });
await page.goto(pathToFileURL(join(resolve(runDir), "report.html")).href, { waitUntil: "load" });
const images = page.locator("#storyboard img.thumb");
for (let i = 0; i < (await images.count()); i++) await images.nth(i).scrollIntoViewIfNeeded();
await page.evaluate(() => window.scrollTo(0, 0));
await page.waitForFunction(() => [...document.images].every((image) => image.complete));
const box = await page.locator("#storyboard").boundingBox();
if (!box) throw new Error("the report has no storyboard");
// Cards off screen are skipped by content-visibility: make the viewport hold the whole section.
const height = Math.ceil(box.y + box.height + 16);
await page.setViewportSize({ width: 1100, height });
await page.waitForFunction(() => [...document.images].every((image) => image.complete));
await page.screenshot({ path: output, clip: { x: 0, y: 0, width: 1100, height } });
await browser.close();
console.log(output);
