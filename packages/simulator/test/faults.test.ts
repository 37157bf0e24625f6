import { describe, expect, it, vi } from "vitest";
import { startSimulator } from "../src/index.js";
import { call, waitForJob } from "./helpers.js";

const chat = {
  model: "reel-chat-1",
  messages: [{ role: "user", content: "Write a short poem about the sea and the wind." }],
};

describe("fault injection", () => {
  it("answers 429 with Retry-After, then 500/503 with error bodies, by sequence", async () => {
    const simulator = await startSimulator({
      faults: "429@chat:#1:2,503@videos.create:#1#2,500@models:#1",
    });
    try {
      const limited = await call(simulator, "/v1/chat/completions", { body: chat });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("2");
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe(
        "rate_limit_exceeded",
      );
      expect((await call(simulator, "/v1/chat/completions", { body: chat })).status).toBe(200);

      const video = {
        model: "reel-video-2-lite",
        prompt: "A quiet street",
        seconds: "1",
        size: "854x480",
      };
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt += 1)
        statuses.push((await call(simulator, "/v1/videos", { body: video })).status);
      expect(statuses).toEqual([503, 503, 200]);
      const models = await call(simulator, "/v1/models");
      expect(models.status).toBe(500);
      expect(((await models.json()) as { error: { type: string } }).error.type).toBe(
        "server_error",
      );

      const stats = simulator.stats();
      expect(stats.videoJobs.created).toBe(1);
      await vi.waitFor(
        () => expect(simulator.stats().requests["POST /v1/videos"]).toEqual({ "200": 1, "503": 2 }),
        { timeout: 10_000 },
      );
      expect(stats.faultsInjected).toEqual({ "429": 1, "503": 2, "500": 1 });
    } finally {
      await simulator.close();
    }
  });

  it("drops a stream mid-way and a plain request after reading it", async () => {
    const simulator = await startSimulator({ faults: "drop@chat:#1#2:1", chunkDelayMs: 0 });
    try {
      const response = await call(simulator, "/v1/chat/completions", {
        body: { ...chat, stream: true },
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let received = "";
      await expect(
        (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            received += Buffer.from(value).toString("utf8");
          }
        })(),
      ).rejects.toThrow();
      expect(received).toContain('"role":"assistant"');
      expect(received).not.toContain("[DONE]");
      await expect(call(simulator, "/v1/chat/completions", { body: chat })).rejects.toThrow();
      expect((await call(simulator, "/v1/chat/completions", { body: chat })).status).toBe(200);
      // The simulator counts a request once its response has closed: wait for it to say so.
      await vi.waitFor(
        () =>
          expect(simulator.stats().requests["POST /v1/chat/completions"]).toEqual({
            dropped: 2,
            "200": 1,
          }),
        { timeout: 10_000 },
      );
    } finally {
      await simulator.close();
    }
  });

  it("creates the job before dropping the reply to POST /v1/videos (an ambiguous submission)", async () => {
    const simulator = await startSimulator({ faults: "drop@videos.create:#1", timeScale: 0.01 });
    try {
      const body = { model: "reel-video-1", prompt: "A kite", seconds: "1" };
      await expect(
        call(simulator, "/v1/videos", { body, headers: { "idempotency-key": "k-1" } }),
      ).rejects.toThrow();
      const retry = await call(simulator, "/v1/videos", {
        body,
        headers: { "idempotency-key": "k-1" },
      });
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(simulator.stats().videoJobs.created).toBe(1);
    } finally {
      await simulator.close();
    }
  });

  it("stalls a stream until the simulator closes, and close() ends it promptly", async () => {
    const simulator = await startSimulator({ faults: "stall@chat:#1", chunkDelayMs: 0 });
    const response = await call(simulator, "/v1/chat/completions", {
      body: { ...chat, stream: true },
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString("utf8")).toContain('"role":"assistant"');
    const rest = (async () => {
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += Buffer.from(value).toString("utf8");
      }
    })().then(
      (text) => text,
      (error: unknown) => error,
    );
    await simulator.close();
    const outcome = await rest;
    if (typeof outcome === "string") expect(outcome).not.toContain("[DONE]");
    await vi.waitFor(
      () => expect(simulator.stats().requests["POST /v1/chat/completions"]).toEqual({ dropped: 1 }),
      { timeout: 10_000 },
    );
  });

  it("stalls for a set time then completes; slows responses; both counted", async () => {
    const simulator = await startSimulator({
      faults: "stall@chat:#1:30,slow@models:#1:30",
      chunkDelayMs: 0,
    });
    try {
      const text = await (
        await call(simulator, "/v1/chat/completions", { body: { ...chat, stream: true } })
      ).text();
      expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
      expect((await call(simulator, "/v1/models")).status).toBe(200);
      expect(simulator.stats().faultsInjected).toEqual({ stall: 1, slow: 1 });
    } finally {
      await simulator.close();
    }
  });

  it("ends jobs failed with { code, message } by fault or by the #fail word, without charging", async () => {
    const simulator = await startSimulator({ faults: "fail-job:#1", timeScale: 0.005 });
    try {
      const submit = async (prompt: string) =>
        (
          (await (
            await call(simulator, "/v1/videos", {
              body: { model: "reel-video-1", prompt, seconds: "1" },
            })
          ).json()) as { id: string }
        ).id;
      const faulted = await waitForJob(simulator, await submit("A calm lake"));
      expect(faulted.status).toBe("failed");
      expect(faulted.error).toEqual({
        code: "video_generation_failed",
        message: expect.any(String),
      });
      expect(faulted).not.toHaveProperty("video_url");
      const forced = await waitForJob(simulator, await submit("A storm #fail at sea"));
      expect(forced.status).toBe("failed");
      expect((forced.error as { message: string }).message).toContain("#fail");
      const fine = await waitForJob(simulator, await submit("A calm lake"));
      expect(fine.status).toBe("completed");
      const content = await call(simulator, `/v1/videos/${forced.id}/content`);
      expect(content.status).toBe(409);
      expect(((await content.json()) as { error: { code: string } }).error.code).toBe(
        "video_failed",
      );
      const stats = simulator.stats();
      expect(stats.videoJobs).toMatchObject({ created: 3, completed: 1, failed: 2 });
      expect(stats.creditsCharged).toBe(
        fine.usage && (fine.usage as { total_credits: number }).total_credits,
      );
    } finally {
      await simulator.close();
    }
  });
});
