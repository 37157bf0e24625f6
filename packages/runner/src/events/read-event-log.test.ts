import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEventLog } from "./read-event-log.js";

describe("readEventLog", () => {
  it("reads events in order and skips torn or foreign lines", () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-events-"));
    const file = join(dir, "events.ndjson");
    const a = { seq: 1, time: "2026-01-01T00:00:00.000Z", type: "step.start", step: "a" };
    const b = {
      seq: 2,
      time: "2026-01-01T00:00:01.000Z",
      type: "step.skip",
      step: "b",
      reason: "x",
    };
    writeFileSync(
      file,
      `${JSON.stringify(a)}\n[1,2]\n{"no":"type"}\n${JSON.stringify(b)}\n{"seq":3,"time":"2026-`,
    );
    expect(readEventLog(file)).toEqual([a, b]);
  });

  it("gives no events for a run that has not written any yet", () => {
    expect(readEventLog(join(tmpdir(), "reelsmith-no-such-dir", "events.ndjson"))).toEqual([]);
  });
});
