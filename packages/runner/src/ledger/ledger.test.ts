import { describe, expect, it } from "vitest";
import type { JournalRecord } from "../journal/journal-record.js";
import { createLedger, ledgerOf } from "./ledger.js";

const charge = (index: number, job: string, credits: number, take?: number): JournalRecord => ({
  type: "ledger",
  step: "clips",
  index,
  totals: { credits },
  jobId: job,
  key: `charged:${job}`,
  ...(take === undefined ? {} : { take }),
});

describe("the ledger counts each fact once", () => {
  it("keys an entry by its unit, take and key: the same fact written again adds nothing", () => {
    const ledger = ledgerOf([
      charge(0, "v1", 9),
      charge(1, "v2", 9),
      // A resumed unit (or a unit re-run after its worker died) journals its charge again.
      charge(0, "v1", 9),
      charge(1, "v2", 9),
    ]);
    expect(ledger.total.credits).toBe(18);
    expect(ledger.units["clips#0"]?.credits).toBe(9);
    expect(ledger.units["clips#1"]?.credits).toBe(9);
  });

  it("counts a retake's charge apart from the first take's, and a keyless entry every time", () => {
    const records: JournalRecord[] = [
      charge(1, "v2", 9),
      charge(1, "v7", 9, 2),
      charge(1, "v7", 9, 2),
      { type: "ledger", step: "caption", totals: { credits: 3 }, via: "sub-pipeline" },
      { type: "ledger", step: "caption", totals: { credits: 3 }, via: "sub-pipeline" },
    ];
    const ledger = ledgerOf(records);
    expect(ledger.takes).toMatchObject({
      "clips#1@1": { credits: 9 },
      "clips#1@2": { credits: 9 },
    });
    expect(ledger.steps.caption?.credits).toBe(6);
    expect(ledger.total.credits).toBe(24);
  });

  it("a live ledger seeded with a run's journal ignores a session's repeat of a known fact", () => {
    const ledger = createLedger([charge(0, "v1", 9)]);
    ledger.add(charge(0, "v1", 9));
    ledger.add(charge(1, "v2", 9));
    expect(ledger.total().credits).toBe(18);
  });
});
