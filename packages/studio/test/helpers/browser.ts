// The report package's launcher: the same headless Chromium for the studio's pages.
export { launchBrowser } from "../../../report/test/helpers/browser.js";
