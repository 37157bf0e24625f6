import { describe, expect, it } from "vitest";
import { storyboardEvents, storyboardResult } from "./__fixtures__/storyboard-events.js";
import { createJsonRenderer } from "./json-renderer.js";

describe("json renderer", () => {
  it("writes each event as one JSON object per line, and notes to the other stream", () => {
    let out = "";
    let err = "";
    const renderer = createJsonRenderer({
      out: { write: (t: string) => (out += t) },
      err: { write: (t: string) => (err += t) },
    });
    renderer.note("using the built-in simulator");
    for (const event of storyboardEvents) renderer.event(event);
    renderer.end(storyboardResult);
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(storyboardEvents.length);
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.map((e) => e.seq)).toEqual(storyboardEvents.map((e) => e.seq));
    expect(parsed.at(-1)).toMatchObject({ type: "run.end", status: "succeeded" });
    expect(err).toBe("using the built-in simulator\n");
  });

  it("writes a run.end of its own when the runner never emitted one", () => {
    let out = "";
    const renderer = createJsonRenderer({
      out: { write: (t: string) => (out += t) },
      err: { write: () => {} },
    });
    renderer.end({ ...storyboardResult, status: "cancelled" });
    expect(JSON.parse(out)).toMatchObject({ type: "run.end", status: "cancelled" });
  });
});
