import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEventBus } from "./event-bus.js";
import { createEventQueue } from "./event-queue.js";
import type { RunEvent } from "./run-event.js";

describe("event bus", () => {
  it("numbers events, feeds listeners, the queue and events.ndjson", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "reelsmith-events-")), "events.ndjson");
    const seen: RunEvent[] = [];
    const bus = createEventBus({ onEvent: (e) => seen.push(e) });
    const queue = createEventQueue();
    bus.subscribe((e) => queue.push(e));
    bus.subscribe(() => {
      throw new Error("a broken renderer");
    });
    bus.attachFile(file);
    bus.emit({ type: "step.start", step: "a" });
    bus.emit({ type: "step.skip", step: "b", reason: "if was false" });
    bus.close();
    queue.end();
    expect(seen.map((e) => [e.seq, e.type])).toEqual([
      [1, "step.start"],
      [2, "step.skip"],
    ]);
    expect(Number.isNaN(Date.parse(seen[0]!.time))).toBe(false);
    const streamed: string[] = [];
    for await (const e of queue) streamed.push(e.type);
    expect(streamed).toEqual(["step.start", "step.skip"]);
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[1]).toMatchObject({ seq: 2, type: "step.skip", step: "b" });
  });
  it("writes one line per event across ticks, each ending with a newline", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "reelsmith-events-")), "events.ndjson");
    const bus = createEventBus();
    bus.attachFile(file);
    bus.emit({ type: "step.start", step: "a" });
    bus.emit({ type: "step.start", step: "b" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(file, "utf8").endsWith("\n")).toBe(true);
    bus.emit({ type: "step.skip", step: "c", reason: "if was false" });
    bus.close();
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text
      .slice(0, -1)
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => [e.seq, e.step])).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
  });
});
