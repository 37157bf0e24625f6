import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import { call, waitForJob } from "./helpers.js";

describe("close()", () => {
  it("ends open streams, pending jobs and a render in progress, and removes its temp data", async () => {
    const logged: string[] = [];
    const simulator = await startSimulator({
      timeScale: 0.001,
      chunkDelayMs: 1000,
      logger: { info: (message) => logged.push(message) },
    });
    const stream = await call(simulator, "/v1/chat/completions", {
      body: {
        model: "reel-chat-1",
        stream: true,
        messages: [{ role: "user", content: "Tell a long story." }],
      },
    });
    const streamed = stream.text().then(
      (text) => text,
      (error: unknown) => error,
    );
    const { id } = (await (
      await call(simulator, "/v1/videos", {
        body: { model: "reel-video-3-long", prompt: "Long", seconds: "20", size: "1920x1080" },
      })
    ).json()) as { id: string };
    await waitForJob(simulator, id);
    const download = call(simulator, `/v1/videos/${id}/content`).then(
      (response) => response.status,
      (error: unknown) => error,
    );
    await (
      await call(simulator, "/v1/videos", {
        body: { model: "reel-video-1", prompt: "Never finishes", seconds: "10" },
      })
    ).json();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await simulator.close();
    const outcome = await streamed;
    if (typeof outcome === "string") expect(outcome).not.toContain("[DONE]");
    expect(await download).not.toBe(200);
    expect(simulator.stats().clipsRendered).toBe(0);
    await expect(fetch(`${simulator.url}/v1/models`)).rejects.toThrow();
    expect(logged).toEqual(["simulator: listening", "simulator: closed"]);
    await simulator.close();
  });

  it("keeps a dataDir it was given", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "simulator-data-"));
    try {
      const simulator = await startSimulator({ dataDir });
      await simulator.close();
      await expect(access(dataDir)).resolves.toBeUndefined();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
