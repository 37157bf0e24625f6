import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { isLoopback, isReachable } from "./reachable.js";

describe("isReachable", () => {
  it("tells a listening port from a closed one", async () => {
    const server = createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    expect(await isReachable(`http://127.0.0.1:${port}`)).toBe(true);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await isReachable(`http://127.0.0.1:${port}`)).toBe(false);
    expect(await isReachable("not a url")).toBe(false);
  });

  it("recognises loopback addresses", () => {
    expect(isLoopback("http://127.0.0.1:4000")).toBe(true);
    expect(isLoopback("http://localhost")).toBe(true);
    expect(isLoopback("http://[::1]:80")).toBe(true);
    expect(isLoopback("https://media.example.com")).toBe(false);
  });
});
