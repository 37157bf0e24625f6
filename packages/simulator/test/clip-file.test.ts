import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@reelsmith/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";

describe("clipFile", () => {
  let directory = "";
  let simulator: Simulator;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "reelsmith-sim-clip-file-"));
    const clip = path.join(directory, "template.mp4");
    await writeFile(clip, Buffer.from("not really an mp4, served as is"));
    simulator = await startSimulator({ timeScale: 0.001, clipFile: clip });
  });
  afterAll(async () => {
    await simulator.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("serves the given file as every job's content and renders nothing", async () => {
    const client = createClient({ baseURL: simulator.url, apiKey: simulator.apiKey });
    for (const prompt of ["a fox", "a lake"]) {
      const job = await client.videos.createAndWait({ model: "reel-video-2-lite", prompt });
      const target = path.join(directory, `${job.id}.mp4`);
      await client.videos.downloadContent(job.id, { to: target });
      expect(await readFile(target, "utf8")).toBe("not really an mp4, served as is");
    }
    expect(simulator.stats().clipsRendered).toBe(0);
  });
});
