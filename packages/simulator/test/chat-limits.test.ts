import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { call } from "./helpers.js";

const story = "A fox crosses a frozen river at night.";

/** A chat request for a storyboard of `scenes` scenes, bounded by `minItems`/`maxItems`. */
const storyboard = (scenes: number) => ({
  model: "reel-chat-1",
  messages: [
    { role: "system", content: "You are a storyboard artist." },
    { role: "user", content: `${story}\n\nSplit the story above into ${scenes} scenes.` },
  ],
  response_format: {
    type: "json_schema",
    json_schema: {
      name: "storyboard",
      strict: true,
      schema: {
        type: "object",
        required: ["scenes"],
        additionalProperties: false,
        properties: {
          scenes: {
            type: "array",
            minItems: scenes,
            maxItems: scenes,
            items: {
              type: "object",
              required: ["title", "description"],
              additionalProperties: false,
              properties: { title: { type: "string" }, description: { type: "string" } },
            },
          },
        },
      },
    },
  },
});

describe("chat answers as much as asked, or says why not", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it("answers a 5,000-scene storyboard of a one-sentence story with 5,000 different scenes", async () => {
    const response = await call(simulator, "/v1/chat/completions", { body: storyboard(5000) });
    expect(response.status).toBe(200);
    const completion = (await response.json()) as {
      choices: { message: { content: string }; finish_reason: string }[];
    };
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    const { scenes } = JSON.parse(completion.choices[0]?.message.content ?? "") as {
      scenes: { title: string; description: string }[];
    };
    expect(scenes).toHaveLength(5000);
    expect(new Set(scenes.map((scene) => scene.description)).size).toBe(5000);
    expect(new Set(scenes.map((scene) => scene.title)).size).toBe(5000);
    for (const scene of scenes) expect(scene.description).toContain(story);
  });

  it("refuses a storyboard over the limit with a 400 naming it, and counts no completion", async () => {
    const completions = async () => {
      const stats = await call(simulator, "/_simulator/stats");
      return ((await stats.json()) as { chatCompletions: number }).chatCompletions;
    };
    const small = await call(simulator, "/v1/chat/completions", { body: storyboard(2) });
    expect(small.status).toBe(200);
    const before = await completions();
    expect(before).toBeGreaterThan(0);
    const response = await call(simulator, "/v1/chat/completions", { body: storyboard(100_001) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message:
          "The request asks for at least 100,001 items (minItems) at `scenes`; the simulator answers at most 100,000 items per array. Ask for less, or split the request.",
        type: "invalid_request_error",
        param: "response_format",
        code: "schema_limit_exceeded",
      },
    });
    expect(await completions()).toBe(before);
  });
});
