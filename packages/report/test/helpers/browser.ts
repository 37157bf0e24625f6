import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";
import { unpackChromium } from "./unpack-chromium.mjs";

/** Flags of @sparticuz/chromium that would make the test browser laxer than a user's. */
const DROPPED = new Set(["--disable-web-security", "--allow-running-insecure-content"]);

/** Flags so that the browser itself sends nothing anywhere while a test runs. */
const QUIET = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--no-first-run",
  "--metrics-recording-only",
  "--autoplay-policy=no-user-gesture-required",
];

/**
 * Launches the headless Chromium shipped inside the @sparticuz/chromium npm package (unpacked
 * once per machine, safely across processes: `unpack-chromium.mjs`) driven by playwright-core.
 * No download, no system browser. Running as root needs --no-sandbox, which the package's
 * flags include.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = await unpackChromium();
  const args = chromium.args.filter((flag) => !DROPPED.has(flag));
  if (process.getuid?.() === 0 && !args.includes("--no-sandbox")) args.push("--no-sandbox");
  return playwright.launch({ executablePath, args: [...args, ...QUIET], headless: true });
}
