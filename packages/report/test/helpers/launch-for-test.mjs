// Launches a given Chromium binary headless with playwright-core and answers its version:
// the check, for a child process, that an unpacked binary is whole and runnable.
import chromium from "@sparticuz/chromium";
import { chromium as playwright } from "playwright-core";

/**
 * @param {string} executablePath
 * @returns {Promise<string>}
 */
export async function launchUnpacked(executablePath) {
  const args = chromium.args.filter((flag) => flag !== "--disable-web-security");
  if (process.getuid?.() === 0 && !args.includes("--no-sandbox")) args.push("--no-sandbox");
  const browser = await playwright.launch({ executablePath, args, headless: true });
  try {
    const page = await browser.newPage();
    await page.setContent("<p>ok</p>");
    return browser.version();
  } finally {
    await browser.close();
  }
}
