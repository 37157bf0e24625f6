import Replicate from "replicate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { klingModel, replicateProfile } from "./replicate-fixture.js";

/** Replicate's official client, unchanged but for its base URL: its requests go to the simulator. */
function replicateClient(simulator: Simulator, auth = simulator.apiKey) {
  return new Replicate({ auth, baseUrl: `${simulator.url}/v1` });
}

type Prediction = Awaited<ReturnType<Replicate["predictions"]["get"]>>;

/** An ApiError of the client: its status and the problem-details body it carries. */
async function problem(error: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  expect((error as Error).name).toBe("ApiError");
  const response = (error as { response: Response }).response;
  const message = (error as Error).message;
  const body = JSON.parse(message.slice(message.indexOf(": ") + 2, -1)) as Record<string, unknown>;
  return { status: response.status, body };
}

describe("the replicate client against serve --dialect replicate", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({ profile: replicateProfile(), timeScale: 0.01 });
  });
  afterAll(async () => {
    await simulator.close();
  });

  it("serves the replicate dialect the profile names", () => {
    expect(simulator.dialect).toBe("replicate");
  });

  it("predictions.create, get and wait: a clip whose output URL serves an MP4, charged at its price", async () => {
    const replicate = replicateClient(simulator);
    const before = simulator.stats().creditsCharged;
    const input = { prompt: "A lighthouse at dusk", duration: 5, aspect_ratio: "16:9" };
    const created = await replicate.predictions.create({ model: klingModel, input });
    expect(created).toMatchObject({ model: klingModel, input });
    expect(["starting", "processing", "succeeded"]).toContain(created.status);
    expect(created.urls.get).toBe(`${simulator.url}/v1/predictions/${created.id}`);
    const got = await replicate.predictions.get(created.id);
    expect(got.id).toBe(created.id);
    const done = await replicate.wait(created, { interval: 10 });
    expect(done.status).toBe("succeeded");
    expect(done.completed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const clip = await fetch(done.output as string);
    expect(clip.status).toBe(200);
    expect(clip.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await clip.arrayBuffer());
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(simulator.stats().creditsCharged - before).toBe(35);
    expect(simulator.videoRequests().at(-1)?.fields).toEqual(input);
  });

  it("run with a model id: Prefer: wait holds the answer until the clip is made", async () => {
    const replicate = replicateClient(simulator);
    const seen: string[] = [];
    const output = await replicate.run(
      klingModel,
      { input: { prompt: "A fox in the snow", duration: 10, aspect_ratio: "9:16" } },
      (prediction: Prediction) => seen.push(prediction.status),
    );
    expect(output).toMatch(new RegExp(`^${simulator.url}/files/\\S+/output\\.mp4$`));
    expect(seen.at(-1)).toBe("succeeded");
  });

  it("predictions.list pages newest first; paginate walks every page", async () => {
    const replicate = replicateClient(simulator);
    const made: string[] = [];
    for (let index = 0; index < 101; index++) {
      const prediction = await replicate.predictions.create({
        model: klingModel,
        input: { prompt: `A wave, take ${index}`, duration: 5 },
      });
      made.push(prediction.id);
    }
    const first = await replicate.predictions.list();
    expect(first.results).toHaveLength(100);
    expect(first.results[0]?.id).toBe(made.at(-1));
    expect(first.next).toMatch(/\/v1\/predictions\?cursor=/);
    expect(first.previous).toBeNull();
    const listed: string[] = [];
    for await (const page of replicate.paginate(replicate.predictions.list)) {
      listed.push(...page.map((prediction: Prediction) => prediction.id));
    }
    expect(listed).toHaveLength(simulator.stats().videoJobs.created);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.slice(0, 101)).toEqual([...made].reverse());
    // created_after keeps the predictions made since then (Replicate's own filter).
    const since = (await replicate.predictions.get(made[50] ?? "")).created_at;
    const recent = (await (
      await replicate.request(`/predictions?created_after=${encodeURIComponent(since)}`, {
        method: "GET",
      })
    ).json()) as { results: Prediction[]; next: string | null };
    const recentIds = recent.results.map((prediction) => prediction.id);
    expect(recentIds.slice(0, 51)).toEqual(made.slice(50).reverse());
    expect(recent.results.every((prediction) => prediction.created_at >= since)).toBe(true);
  });

  it("refuses a duration the model does not take with a 422 naming input.duration, and charges nothing", async () => {
    const replicate = replicateClient(simulator);
    const before = simulator.stats();
    const error = await replicate.predictions
      .create({ model: klingModel, input: { prompt: "A storm", duration: 7 } })
      .catch((caught: unknown) => caught);
    const { status, body } = await problem(error);
    expect(status).toBe(422);
    expect(body).toMatchObject({ status: 422, title: "Input validation failed" });
    expect((body.invalid_fields as { field: string }[])[0]?.field).toBe("input.duration");
    // No prediction was made, so none can be charged.
    expect(simulator.stats().videoJobs.created).toBe(before.videoJobs.created);
    expect(simulator.videoRequests().at(-1)?.status).toBe(422);
  });

  it("answers an unknown model and a wrong token in Replicate's { detail, status, title }", async () => {
    const missing = await replicateClient(simulator)
      .predictions.create({ model: "nobody/nothing", input: { prompt: "A storm" } })
      .catch((caught: unknown) => caught);
    expect(await problem(missing)).toMatchObject({ status: 404, body: { title: "Not found" } });
    const denied = await replicateClient(simulator, "not-the-token")
      .predictions.get("anything")
      .catch((caught: unknown) => caught);
    const { status, body } = await problem(denied);
    expect(status).toBe(401);
    expect(body).toMatchObject({ status: 401, title: "Unauthenticated" });
    expect(String(body.detail)).not.toContain("not-the-token");
  });

  it("a failed prediction ends failed with its error; wait throws it", async () => {
    const replicate = replicateClient(simulator);
    const created = await replicate.predictions.create({
      model: klingModel,
      input: { prompt: "A storm #fail", duration: 5 },
    });
    const error = await replicate
      .wait(created, { interval: 10 })
      .catch((caught: unknown) => caught);
    expect(String(error)).toMatch(/Prediction failed: .*#fail/);
    const failed = await replicate.predictions.get(created.id);
    expect(failed).toMatchObject({ status: "failed", output: null });
  });
});

describe("the replicate client's cancel against serve --dialect replicate", () => {
  it("cancels a running prediction: it ends canceled and is not charged", async () => {
    // Real time: the 5 s clip is still running when the cancel arrives.
    const simulator = await startSimulator({ profile: replicateProfile(), timeScale: 1 });
    try {
      const replicate = replicateClient(simulator);
      const created = await replicate.predictions.create({
        model: klingModel,
        input: { prompt: "A slow sunrise", duration: 5 },
      });
      const canceled = await replicate.predictions.cancel(created.id);
      expect(canceled).toMatchObject({ id: created.id, status: "canceled", error: null });
      expect((await replicate.predictions.get(created.id)).status).toBe("canceled");
      expect(simulator.stats().creditsCharged).toBe(0);
    } finally {
      await simulator.close();
    }
  });
});
