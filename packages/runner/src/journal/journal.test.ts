import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayJournal } from "../executor/replay-journal.js";
import { openJournal, readJournal } from "./journal.js";
import { decodeRecord, encodeRecord } from "./journal-record.js";
import { SINGLE_ITEM } from "./journal-state.js";
import { createStepJournal } from "./step-journal.js";

describe("journal", () => {
  it("appends checksummed records and ignores a torn last line", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "reelsmith-journal-")), "journal.jsonl");
    const journal = openJournal(file);
    await journal.append({ type: "step.start", step: "a" });
    await journal.append({ type: "step.end", step: "a", outputs: { text: "hi" } });
    await journal.close();
    appendFileSync(file, '{"type":"step.start","step":"b","su');
    expect(readJournal(file).map((r) => r.type)).toEqual(["step.start", "step.end"]);
    // appending after a torn line starts a fresh line, so the new record survives
    const again = openJournal(file);
    again.append({ type: "step.start", step: "c" });
    again.close();
    expect(readJournal(file).map((r) => r.step)).toEqual(["a", "a", "c"]);
  });

  it("writes each record as encodeRecord writes it with its time, stamped or given", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "reelsmith-journal-")), "journal.jsonl");
    const journal = openJournal(file);
    const end = { type: "step.end", step: "a", outputs: { text: "hi", n: [1, 2] } };
    await journal.append(end);
    await journal.append({ type: "x" });
    await journal.append({ type: "run.end", time: "2026-01-01T00:00:00.000Z", status: "ok" });
    await journal.close();
    const lines = readFileSync(file, "utf8").split("\n");
    const [first, second, third] = readJournal(file);
    expect(first).toEqual({ ...end, time: expect.any(String) });
    expect(`${lines[0]}\n`).toBe(encodeRecord({ ...end, time: first?.time }));
    expect(`${lines[1]}\n`).toBe(encodeRecord({ type: "x", time: second?.time }));
    expect(third?.time).toBe("2026-01-01T00:00:00.000Z");
    expect(`${lines[2]}\n`).toBe(
      encodeRecord({ type: "run.end", time: third?.time, status: "ok" }),
    );
  });

  it("is ordered: a record not awaited is in the file once a later one is durable", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "reelsmith-journal-")), "journal.jsonl");
    const journal = openJournal(file);
    expect(journal.ordered).toBe(true);
    const started = journal.append({ type: "step.start", step: "a" });
    await journal.append({ type: "step.end", step: "a", outputs: {} });
    expect(readJournal(file).map((r) => r.type)).toEqual(["step.start", "step.end"]);
    await started;
    await journal.close();
  });

  it("rejects a record whose content no longer matches its checksum", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "reelsmith-journal-")), "journal.jsonl");
    const journal = openJournal(file);
    await journal.append({ type: "step.end", step: "a", outputs: { n: 1 } });
    await journal.close();
    writeFileSync(file, readFileSync(file, "utf8").replace('"n":1', '"n":2'));
    expect(readJournal(file)).toEqual([]);
  });

  it("checks a line's sum on its own text, and a line whose sum is not last on its record", () => {
    const line = encodeRecord({ type: "step.end", step: "a", outputs: { n: 1.5 } }).trim();
    expect(decodeRecord(line)).toEqual({ type: "step.end", step: "a", outputs: { n: 1.5 } });
    expect(decodeRecord(line.replace('"n":1.5', '"n":2.5'))).toBeUndefined();
    // Written by another encoder, the sum first: checked on the record written out again.
    const sum = (JSON.parse(line) as { sum: string }).sum;
    const reordered = `{"sum":"${sum}","type":"step.end","step":"a","outputs":{"n":1.5}}`;
    expect(decodeRecord(reordered)).toEqual({ type: "step.end", step: "a", outputs: { n: 1.5 } });
    expect(decodeRecord(reordered.replace('"a"', '"b"'))).toBeUndefined();
    const empty = encodeRecord({ type: "x" }).trim();
    expect(decodeRecord(empty)).toEqual({ type: "x" });
    // Read as written: trailing spaces or a CR are not part of it; a sum of other digits is not it.
    expect(decodeRecord(`${line} \r`)).toEqual({
      type: "step.end",
      step: "a",
      outputs: { n: 1.5 },
    });
    expect(
      decodeRecord(line.replace(/"sum":"[0-9a-f]{16}"/, `"sum":"${"0".repeat(16)}"`)),
    ).toBeUndefined();
    expect(decodeRecord(line.replace(/"sum":"[0-9a-f]{16}"/, '"sum":"xyz"'))).toBeUndefined();
    // A record with a `sum` field of its own is read as it always was (that field dropped).
    const own = encodeRecord({ type: "x", sum: "mine" }).trim();
    expect(decodeRecord(own)).toEqual({ type: "x" });
    // No type: not a record.
    expect(decodeRecord(encodeRecord({ type: 1 } as never).trim())).toBeUndefined();
  });

  it("replays steps, items and facts", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "reelsmith-journal-")), "journal.jsonl");
    const journal = openJournal(file);
    await journal.append({ type: "run.start", runId: "r" });
    await journal.append({ type: "step.start", step: "clips" });
    const item = createStepJournal(journal, "clips", 1, undefined);
    await item.record("video.submitted", { jobId: "video_1" });
    await journal.append({ type: "item.end", step: "clips", index: 0, outputs: { file: "a" } });
    await journal.append({
      type: "item.fail",
      step: "clips",
      index: 2,
      error: { name: "E", message: "m" },
    });
    await journal.append({ type: "step.end", step: "plan", outputs: { text: "t" } });
    await journal.close();
    const state = replayJournal(readJournal(file));
    expect(state.start?.runId).toBe("r");
    const clips = state.steps.get("clips");
    expect(clips?.status).toBe("running");
    expect(clips?.items.get(0)?.outputs).toEqual({ file: "a" });
    expect(clips?.items.get(1)?.facts["video.submitted"]).toEqual({ jobId: "video_1" });
    expect(clips?.items.get(2)?.status).toBe("failed");
    expect(state.steps.get("plan")?.outputs).toEqual({ text: "t" });
    const resumed = createStepJournal(openJournal(file), "clips", 1, clips?.items.get(1));
    expect(resumed.recall("video.submitted")?.jobId).toBe("video_1");
    expect(SINGLE_ITEM).toBe(-1);
  });
});
