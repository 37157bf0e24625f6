import { describe, expect, it } from "vitest";
import { parseServerSentEvents } from "./sse.js";

async function collect(chunks: (string | Uint8Array)[]) {
  async function* source() {
    for (const chunk of chunks)
      yield typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
  }
  const events = [];
  for await (const event of parseServerSentEvents(source())) events.push(event);
  return events;
}

describe("parseServerSentEvents", () => {
  it("handles CRLF line endings", async () => {
    const events = await collect(["data: one\r\n\r\ndata: two\r\n\r\n"]);
    expect(events.map((event) => event.data)).toEqual(["one", "two"]);
  });

  it("ignores comment / keep-alive lines", async () => {
    const events = await collect([": keep-alive\n\n", "data: one\n", ": ping\n", "\n"]);
    expect(events.map((event) => event.data)).toEqual(["one"]);
  });

  it("joins multi-line data with newlines", async () => {
    const events = await collect(['data: {"a":\ndata: 1}\n\n']);
    expect(events.map((event) => event.data)).toEqual(['{"a":\n1}']);
    expect(JSON.parse(events[0]!.data)).toEqual({ a: 1 });
  });

  it("decodes a UTF-8 character split across two chunks", async () => {
    const bytes = new TextEncoder().encode("data: h\u00e9llo \u{1F3AC}\n\n");
    const split = bytes.indexOf(0xc3) + 1; // inside the two-byte é
    const emoji = bytes.indexOf(0xf0) + 2; // inside the four-byte emoji
    const events = await collect([
      bytes.slice(0, split),
      bytes.slice(split, emoji),
      bytes.slice(emoji),
    ]);
    expect(events.map((event) => event.data)).toEqual(["h\u00e9llo \u{1F3AC}"]);
  });

  it("splits lines and events at any chunk boundary", async () => {
    const text = "event: error\ndata: x\n\ndata: y\r\n\r\n";
    const events = await collect(text.split(""));
    expect(events).toEqual([
      { event: "error", data: "x", id: undefined },
      { event: undefined, data: "y", id: undefined },
    ]);
  });

  it("delivers a last event without the final blank line", async () => {
    const events = await collect(["data: [DONE]"]);
    expect(events.map((event) => event.data)).toEqual(["[DONE]"]);
  });
});
