import { join } from "node:path";
import { type RunEvent, runPipeline } from "@reelsmith/runner";
import { ledgerOf, readJournal } from "@reelsmith/runner/internal";
import { afterAll, describe, expect, it } from "vitest";
import { writeReport } from "../src/write-report.js";
import { fixture, startFixtureService } from "./helpers/run-fixture.js";

describe("the report of a resumed run", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it("counts what every session spent, marks the resume and shows every clip", async () => {
    const service = await startFixtureService({ timeScale: 0.05 });
    closers.push(() => service.close());
    const controller = new AbortController();
    const first = await service.run(fixture("states.yaml"), {
      signal: controller.signal,
      onEvent: (event: RunEvent) => {
        // Stop once one clip is done: the first session has spent something.
        if (event.type === "item.end" && event.status === "succeeded") controller.abort();
      },
    });
    expect(first.status).toBe("cancelled");
    const interrupted = await writeReport(first.runDir);
    expect(interrupted.model.status).toBe("cancelled");
    const spentBefore = interrupted.model.totals.credits;
    expect(spentBefore).toBeGreaterThan(0);

    const resumed = await runPipeline(undefined, {
      resume: first.runDir,
      client: service.client,
      cacheDir: join(service.root, "cache"),
      cache: false,
    });
    expect(resumed.status).toBe("succeeded");
    const { model } = await writeReport(first.runDir);
    expect(model.status).toBe("succeeded");
    expect(model.timeline.resumes).toHaveLength(1);
    expect(model.cards.map((card) => card.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(model.timeline.rows.filter((row) => row.step === "clips")).toHaveLength(3);
    // The run's ledger counts every session: the resumed run, its report and the service agree.
    const charged = service.simulator.stats().creditsCharged;
    expect(model.totals.credits).toBe(charged);
    expect(resumed.totals.credits).toBe(charged);
    expect(model.totals.credits).toBeGreaterThan(spentBefore);
    const journaled = ledgerOf(readJournal(join(first.runDir, "journal.jsonl"))).total.credits;
    expect(model.totals.credits).toBe(journaled);
  });
});
