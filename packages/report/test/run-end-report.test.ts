import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeRunEndReport } from "../src/write-report.js";
import { fixture, startFixtureService } from "./helpers/run-fixture.js";

describe("writeRunEndReport: the report every host writes at a run's end", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it("writes report.html with the host's secrets redacted", async () => {
    const service = await startFixtureService();
    closers.push(() => service.close());
    const result = await service.run(fixture("chat.yaml"));
    expect(result.status).toBe("succeeded");
    // The prompt stands in for a key the host holds: it is in the page unless redacted.
    const secret = "films the sunset";
    const plain = await writeRunEndReport(result.runDir);
    expect(plain.error).toBeUndefined();
    expect(readFileSync(plain.file ?? "", "utf8")).toContain(secret);
    const report = await writeRunEndReport(result.runDir, { secrets: [secret] });
    expect(report).toEqual({ file: join(result.runDir, "report.html"), postersFailed: [] });
    const html = readFileSync(report.file ?? "", "utf8");
    expect(html).not.toContain(secret);
    expect(html).toContain("[redacted]");
  });

  it("says why it wrote nothing instead of throwing (a directory that is not a run)", async () => {
    const empty = mkdtempSync(join(tmpdir(), "reelsmith-not-a-run-"));
    const report = await writeRunEndReport(empty, { secrets: ["sk-0123456789"] });
    expect(report.file).toBeUndefined();
    expect(report.error).toMatch(/run/i);
    expect(report.postersFailed).toEqual([]);
  });
});
