import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { joseToken, klingKey, klingModel, klingProfile } from "./kling-fixture.js";

// Kling has no official JavaScript client: these calls are raw HTTP with a token from `jose`.
const simulators: Simulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((simulator) => simulator.close()));
});

async function serve(options: Parameters<typeof startSimulator>[0] = {}) {
  const simulator = await startSimulator({
    profile: klingProfile(),
    apiKey: klingKey,
    timeScale: 0.01,
    ...options,
  });
  simulators.push(simulator);
  return simulator;
}

type Envelope = {
  code: number;
  message: string;
  request_id: string;
  data?: {
    task_id: string;
    task_status: string;
    task_status_msg?: string;
    task_info?: { external_task_id?: string };
    task_result?: { videos: { id: string; url: string; duration: string }[] };
  };
};

async function call(
  simulator: Simulator,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: Envelope }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const bearer = token ?? (await joseToken());
  if (bearer !== "") headers.authorization = `Bearer ${bearer}`;
  const response = await fetch(`${simulator.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Envelope };
}

const submission = (external: string) => ({
  model_name: klingModel,
  prompt: "A lighthouse at dusk",
  negative_prompt: "blur",
  cfg_scale: 0.5,
  mode: "std",
  aspect_ratio: "9:16",
  duration: "5",
  external_task_id: external,
});

describe("serve --dialect kling over raw HTTP, with a JWT from jose", () => {
  it("takes a text2video task, runs it through Kling's states, serves the clip at its URL", async () => {
    const simulator = await serve();
    const made = await call(simulator, "POST", "/v1/videos/text2video", submission("ext-1"));
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      code: 0,
      message: "SUCCEED",
      data: { task_status: "submitted", task_info: { external_task_id: "ext-1" } },
    });
    const id = made.body.data?.task_id ?? "";
    const seen = new Set<string>();
    let task: Envelope["data"];
    for (;;) {
      task = (await call(simulator, "GET", `/v1/videos/text2video/${id}`)).body.data;
      seen.add(task?.task_status ?? "");
      if (task?.task_status === "succeed" || task?.task_status === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(task?.task_status).toBe("succeed");
    expect([...seen].every((state) => ["submitted", "processing", "succeed"].includes(state))).toBe(
      true,
    );
    const video = task?.task_result?.videos[0];
    expect(video?.duration).toBe("5");
    const clip = await fetch(video?.url ?? "");
    expect(clip.status).toBe(200);
    expect(
      Buffer.from(await clip.arrayBuffer())
        .subarray(4, 8)
        .toString("latin1"),
    ).toBe("ftyp");
    expect(simulator.stats().creditsCharged).toBe(35);
    // The same task, asked for by its external_task_id.
    const byExternal = await call(simulator, "GET", "/v1/videos/text2video/ext-1");
    expect(byExternal.body.data?.task_id).toBe(id);
  });

  it("refuses a second task with an external_task_id already used (1201), making no job", async () => {
    const simulator = await serve();
    expect((await call(simulator, "POST", "/v1/videos/text2video", submission("dup"))).status).toBe(
      200,
    );
    const again = await call(simulator, "POST", "/v1/videos/text2video", submission("dup"));
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(1201);
    expect(again.body.message).toContain("external_task_id dup already exists");
    expect(simulator.stats().videoJobs.created).toBe(1);
  });

  it("refuses an expired token (1004), one not yet valid (1003), a bad signature (1000), none (1001)", async () => {
    const simulator = await serve();
    const now = Math.floor(Date.now() / 1000);
    const expired = await call(
      simulator,
      "POST",
      "/v1/videos/text2video",
      submission("e-1"),
      await joseToken({ exp: now - 60, nbf: now - 1900 }),
    );
    expect(expired).toMatchObject({ status: 401, body: { code: 1004 } });
    const early = await call(
      simulator,
      "POST",
      "/v1/videos/text2video",
      submission("e-2"),
      await joseToken({ nbf: now + 600 }),
    );
    expect(early).toMatchObject({ status: 401, body: { code: 1003 } });
    const forged = await call(
      simulator,
      "POST",
      "/v1/videos/text2video",
      submission("e-3"),
      await joseToken({}, "not-the-secret-key-at-all"),
    );
    expect(forged).toMatchObject({ status: 401, body: { code: 1000 } });
    const stranger = await call(
      simulator,
      "GET",
      "/v1/videos/text2video/e-3",
      undefined,
      await joseToken({ iss: "someone-else" }),
    );
    expect(stranger).toMatchObject({ status: 401, body: { code: 1000 } });
    const none = await call(simulator, "GET", "/v1/videos/text2video/e-3", undefined, "");
    expect(none).toMatchObject({ status: 401, body: { code: 1001 } });
    expect(simulator.stats().videoJobs.created).toBe(0);
  });

  it("answers Kling's codes for bad parameters and unknown tasks, and an image2video task", async () => {
    const simulator = await serve();
    const seven = await call(simulator, "POST", "/v1/videos/text2video", {
      ...submission("p-1"),
      duration: "7",
    });
    expect(seven).toMatchObject({ status: 400, body: { code: 1201 } });
    expect(seven.body.message).toContain("duration");
    const noImage = await call(simulator, "POST", "/v1/videos/image2video", submission("p-2"));
    expect(noImage).toMatchObject({ status: 400, body: { code: 1201 } });
    const missing = await call(simulator, "GET", "/v1/videos/text2video/nothing-here");
    expect(missing).toMatchObject({ status: 404, body: { code: 1203 } });
    const image = await call(simulator, "POST", "/v1/videos/image2video", {
      ...submission("p-3"),
      image: "https://cdn.test/keyframe.png",
    });
    expect(image).toMatchObject({
      status: 200,
      body: { code: 0, data: { task_status: "submitted" } },
    });
    expect(simulator.stats().videoJobs.created).toBe(1);
  });

  it("answers an injected 429 with Kling's rate-limit code (1302)", async () => {
    const simulator = await serve({ faults: "429@videos.create:#1" });
    const limited = await call(simulator, "POST", "/v1/videos/text2video", submission("r-1"));
    expect(limited).toMatchObject({ status: 429, body: { code: 1302 } });
    expect(simulator.stats().videoJobs.created).toBe(0);
  });
});
