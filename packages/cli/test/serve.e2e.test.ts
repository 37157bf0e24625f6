import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli, tempDir } from "./helpers/cli-process.js";

let work: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  work = await tempDir();
});
afterAll(async () => {
  await work.remove();
});

describe("reelsmith serve and models (built CLI)", () => {
  it("serves the simulator, prints its URL and key, answers models, and stops on SIGINT", async () => {
    const server = startCli(
      ["serve", "--port", "0", "--time-scale", "0.01", "--api-key", "serve-key-123"],
      {
        cwd: work.dir,
      },
    );
    await server.waitFor((o) => /API key: \S+/.test(o.stdout));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output.stdout)?.[1];
    expect(url).toBeDefined();
    expect(server.output.stdout).toContain("API key: serve-key-123");
    expect(server.output.stdout).toContain(`export REELSMITH_BASE_URL=${url}`);

    const stats = await fetch(`${url}/_simulator/stats`, {
      headers: { authorization: "Bearer serve-key-123" },
    });
    expect(stats.status).toBe(200);
    expect(await stats.json()).toHaveProperty("videoJobs");

    const models = await runCli(["models", "--base-url", url!, "--api-key", "serve-key-123"], {
      cwd: work.dir,
    });
    expect(models.code).toBe(0);
    expect(models.stdout).toContain("reel-chat-1");
    expect(models.stdout).toMatch(/reel-video-1\s+1 to 10 seconds\s+1280x720/);
    expect(models.stdout + models.stderr).not.toContain("serve-key-123");

    const wrongKey = await runCli(["models", "--base-url", url!, "--api-key", "nope-nope"], {
      cwd: work.dir,
    });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/^error: /);
    expect(wrongKey.stderr).not.toMatch(/\n\s+at /);
    expect(wrongKey.stderr).not.toContain("nope-nope");

    server.child.kill("SIGINT");
    const result = await server.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("simulator stopped");
  });

  it("lists models from the built-in simulator when no service is configured, in one note", async () => {
    const result = await runCli(["models", "--json"], { cwd: work.dir });
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as {
      models: { id: string }[];
      videoModels: { id: string }[];
    };
    expect(parsed.models.map((m) => m.id)).toContain("reel-chat-mini");
    expect(parsed.videoModels.map((m) => m.id)).toEqual([
      "reel-video-1",
      "reel-video-2-lite",
      "reel-video-3-long",
    ]);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("built-in simulator");
  });
});
