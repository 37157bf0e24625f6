import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ledgerOf, readJournal } from "@reelsmith/runner/runs";
import { afterAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { launchBrowser } from "./helpers/browser.js";
import { fixture, startFixtureService } from "./helpers/run-fixture.js";

describe("tokens of a chat step in report.html, in headless Chromium", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it("shows the same figure in the cost table and the chat section: paid, or 0 with what the cache saved", async () => {
    const service = await startFixtureService();
    closers.push(() => service.close());
    const browser = await launchBrowser();
    closers.push(() => browser.close());
    const page = await browser.newPage();
    const tokensIn = async (runDir: string) => {
      const { file } = await writeReport(runDir);
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      const row = page.locator('table.costs tr.step[data-step="story"] td.num');
      return {
        table: await row.last().textContent(),
        chat: await page.locator('details.chat[data-step="story"] .tokens').textContent(),
        ledger: ledgerOf(readJournal(join(runDir, "journal.jsonl"))).total.totalTokens,
      };
    };

    const first = await service.run(fixture("chat.yaml"), { cache: true });
    expect(first.status).toBe("succeeded");
    const paid = await tokensIn(first.runDir);
    expect(paid.ledger).toBeGreaterThan(0);
    expect(paid.table).toBe(String(paid.ledger));
    expect(paid.chat).toBe(`${paid.ledger} tokens`);

    // The same request again: the answer comes from the cache, nothing is paid.
    const second = await service.run(fixture("chat.yaml"), { cache: true });
    expect(second.status).toBe("succeeded");
    const cached = await tokensIn(second.runDir);
    expect(cached.ledger).toBe(0);
    expect(cached.table).toBe("0");
    expect(cached.chat).toBe(`0 tokens (${paid.ledger} saved: from the cache)`);
  });
});
