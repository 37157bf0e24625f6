import { once } from "node:events";
import { type AddressInfo, connect, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { storyboardEvents, storyboardResult } from "./__fixtures__/storyboard-events.js";
import { closableSink } from "./closable-sink.js";
import { createJsonRenderer } from "./json-renderer.js";
import { createPlainRenderer } from "./plain-renderer.js";
import { createPrettyRenderer } from "./pretty-renderer.js";
import type { Renderer } from "./renderer.js";

/** A real loopback connection whose reader reads one chunk and closes it, as `head` does. */
async function streamThatCloses() {
  const server = createServer((socket) => {
    socket.once("data", () => socket.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const stream = connect(port, "127.0.0.1");
  await once(stream, "connect");
  return { stream, close: () => new Promise((resolve) => server.close(resolve)) };
}

const renderers: [string, (out: ReturnType<typeof closableSink>) => Renderer][] = [
  ["json", (out) => createJsonRenderer({ out, err: out })],
  ["plain", (out) => createPlainRenderer({ out, cwd: "/work" })],
  // The pretty renderer draws only on a terminal: the same stream, said to be one.
  ["pretty", (out) => createPrettyRenderer({ out, cwd: "/work", color: false, tickMs: 0 })],
];

describe("closableSink on a stream whose reader goes away", () => {
  it.each(renderers)(
    "the %s renderer goes on without a throw and stops writing",
    async (_name, make) => {
      const { stream, close } = await streamThatCloses();
      const errors: Error[] = [];
      const sink = closableSink(
        {
          write: (text: string) => stream.write(text),
          on: (event, listener) => stream.on(event, listener),
          isTTY: true,
          columns: 100,
          rows: 40,
        },
        (error) => errors.push(error),
      );
      sink.write("first chunk\n");
      const renderer = make(sink);
      // Keep writing until the closed connection is noticed (the first writes after the
      // close may still be taken by the kernel).
      while (!sink.closed) {
        for (const event of storyboardEvents) renderer.event(event);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      renderer.end(storyboardResult);
      expect(sink.closed).toBe(true);
      expect(errors).toHaveLength(1);
      expect((errors[0] as NodeJS.ErrnoException).code).toMatch(/EPIPE|ECONNRESET/);
      expect(sink.write("after\n")).toBe(false);
      await close();
    },
  );
});
