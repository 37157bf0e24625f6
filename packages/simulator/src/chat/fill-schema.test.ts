import { describe, expect, it } from "vitest";
import { HttpError } from "../errors/http-error.js";
import { fillSchema, groupSentences } from "./fill-schema.js";
import { keywordsOf } from "./text-analysis.js";

/** The storyboard example's schema: exactly `count` scenes with a title and a description. */
const storyboard = (count?: number) => ({
  type: "object",
  required: ["scenes"],
  properties: {
    scenes: {
      type: "array",
      ...(count === undefined ? { minItems: 1 } : { minItems: count, maxItems: count }),
      items: {
        type: "object",
        required: ["description"],
        properties: { title: { type: "string" }, description: { type: "string" } },
      },
    },
  },
});

type Board = { scenes: { title: string; description: string }[] };

/** What fillSchema threw, as the 400 it becomes. */
function refusal(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("expected a refusal, got an answer");
}

describe("fillSchema", () => {
  const story = "Split this story into 3 scenes: A fox wakes. It runs. It jumps. It sleeps.";

  it("names characters as a writer would, with a short look, never the story's title", () => {
    const tale =
      "A lighthouse keeper finds a red fox sheltering from the storm. She shares her supper " +
      "with it by the lamp. At dawn the fox follows her along the cliff path.";
    const schema = {
      type: "object",
      required: ["characters", "title"],
      properties: {
        title: { type: "string" },
        characters: {
          type: "array",
          minItems: 1,
          maxItems: 2,
          items: {
            type: "object",
            required: ["name", "look"],
            properties: { name: { type: "string" }, look: { type: "string" } },
          },
        },
      },
    };
    const ask =
      "Name the story's characters with how they look, then split it into 3 scenes: " +
      "what the camera sees, and one sentence the narrator says.";
    const answer = fillSchema(schema, `${tale}\n\n${ask}`) as {
      title: string;
      characters: { name: string; look: string }[];
    };
    expect(answer.characters).toEqual([
      { name: "the keeper", look: "a lighthouse keeper" },
      { name: "the fox", look: "a red fox" },
    ]);
    for (const character of answer.characters) {
      expect(character.name).not.toBe(answer.title);
      expect(character.look.split(" ").length).toBeLessThanOrEqual(5);
    }
    const one = fillSchema(schema, `${tale}\n\nName one character.`) as typeof answer;
    expect(one.characters).toEqual([{ name: "the keeper", look: "a lighthouse keeper" }]);
  });

  it("makes as many scenes as the text asks, from the story's sentences", () => {
    const schema = {
      type: "object",
      required: ["scenes"],
      properties: { scenes: { type: "array", items: { type: "string" } } },
    };
    expect(fillSchema(schema, story)).toEqual({
      scenes: ["A fox wakes.", "It runs.", "It jumps. It sleeps."],
    });
    expect(fillSchema(schema, "Make two scenes: Rain falls. Sun shines. Wind blows.")).toEqual({
      scenes: ["Rain falls.", "Sun shines. Wind blows."],
    });
  });

  it("keeps counts within minItems/maxItems and numbers within their bounds", () => {
    const schema = {
      type: "object",
      properties: {
        shots: {
          type: "array",
          minItems: 1,
          maxItems: 2,
          items: {
            type: "object",
            properties: { seconds: { type: "integer", minimum: 5, maximum: 9 } },
          },
        },
        rating: { type: "number", exclusiveMinimum: 0, maximum: 1 },
      },
    };
    const value = fillSchema(schema, "Give me 7 shots of 12 seconds each: A. B. C.") as {
      shots: { seconds: number }[];
      rating: number;
    };
    expect(value.shots).toHaveLength(2);
    for (const shot of value.shots) expect(shot.seconds).toBe(9);
    expect(value.rating).toBeGreaterThan(0);
    expect(value.rating).toBeLessThanOrEqual(1);
  });

  it("follows $ref, anyOf, enum, const, formats and length bounds", () => {
    const schema = {
      $defs: { mood: { type: "string", enum: ["calm", "tense", "joyful"] } },
      type: "object",
      required: ["mood", "kind", "when", "id", "short", "note"],
      properties: {
        mood: { $ref: "#/$defs/mood" },
        kind: { const: "storyboard" },
        when: { type: "string", format: "date-time" },
        id: { type: "string", format: "uuid" },
        short: { type: "string", maxLength: 10 },
        note: { anyOf: [{ type: "null" }, { type: "string", minLength: 3 }] },
        done: { type: ["boolean", "null"] },
      },
    };
    const value = fillSchema(schema, "A tense chase across rooftops at night.") as Record<
      string,
      unknown
    >;
    expect(value.mood).toBe("tense");
    expect(value.kind).toBe("storyboard");
    expect(value.when).toBe("2026-01-01T00:00:00Z");
    expect(value.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((value.short as string).length).toBeLessThanOrEqual(10);
    expect(typeof value.note).toBe("string");
    expect(typeof value.done).toBe("boolean");
  });

  it("pulls tool-style arguments out of the text", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        unit: { enum: ["celsius", "fahrenheit"] },
      },
    };
    expect(
      fillSchema(
        schema,
        "What will the weather be in New York for the next 5 days, in fahrenheit?",
      ),
    ).toEqual({
      city: "New York",
      days: 5,
      unit: "fahrenheit",
    });
  });

  it("groups sentences contiguously and reuses them when there are too few", () => {
    expect(groupSentences(["a", "b", "c", "d", "e"], 2)).toEqual(["a b", "c d e"]);
    expect(groupSentences(["a", "b"], 3)).toEqual(["a", "b", "a"]);
    expect(groupSentences(["a"], 0)).toEqual([]);
  });

  it.each([4, 6, 12])(
    "makes %i different scenes of a one-sentence story, each faithful to it",
    (count) => {
      const story = "A fox crosses a frozen river at night.";
      const text = `${story}\n\nSplit the story above into ${count} scenes, with one sentence each saying what the camera sees.`;
      const { scenes } = fillSchema(storyboard(count), text) as Board;
      expect(scenes).toHaveLength(count);
      expect(new Set(scenes.map((scene) => scene.description)).size).toBe(count);
      expect(new Set(scenes.map((scene) => scene.title)).size).toBe(count);
      const words = keywordsOf(story);
      for (const scene of scenes) {
        expect(words.some((word) => scene.description.toLowerCase().includes(word))).toBe(true);
        expect(scene.description).not.toMatch(/split|camera sees/i);
      }
      expect(fillSchema(storyboard(count), text)).toEqual({ scenes });
    },
  );

  it("answers as many scenes as the prompt asks, 5,000 written either way, all different", () => {
    for (const asked of ["5000", "5,000"]) {
      const { scenes } = fillSchema(
        storyboard(),
        `A paper boat leaves a child's hands. It comes out on a sunlit lake.\n\nSplit the story above into ${asked} scenes.`,
      ) as Board;
      expect(scenes).toHaveLength(5000);
      expect(new Set(scenes.map((scene) => scene.description)).size).toBe(5000);
    }
    const { scenes } = fillSchema(storyboard(12_000), "A fox crosses a frozen river.") as Board;
    expect(new Set(scenes.map((scene) => scene.title)).size).toBe(12_000);
  });

  it("refuses with a 400 naming the limit rather than answer less than asked", () => {
    const items = refusal(() => fillSchema(storyboard(100_001), "A fox runs."));
    expect(items.status).toBe(400);
    expect(items.type).toBe("invalid_request_error");
    expect(items.code).toBe("schema_limit_exceeded");
    expect(items.param).toBe("response_format");
    expect(items.message).toBe(
      "The request asks for at least 100,001 items (minItems) at `scenes`; the simulator answers at most 100,000 items per array. Ask for less, or split the request.",
    );
    const named = refusal(() =>
      fillSchema(storyboard(), "A fox runs. Split the story into 250,000 scenes.", {
        param: "messages",
      }),
    );
    expect(named.message).toContain("250,000 scenes at `scenes`");
    expect(named.param).toBe("messages");
    const long = refusal(() =>
      fillSchema(
        { type: "object", properties: { note: { type: "string", minLength: 2_000_000 } } },
        "A.",
      ),
    );
    expect(long.message).toContain("at least 2,000,000 characters at `note`");
    expect(long.message).toContain("at most 1,000,000 characters per string");
    const values = refusal(() =>
      fillSchema(
        {
          type: "array",
          minItems: 2000,
          items: { type: "array", minItems: 1000, items: { type: "integer" } },
        },
        "Numbers.",
      ),
    );
    expect(values.message).toContain("at most 1,000,000 values per answer");
    const endless = { type: "object", required: ["next"], properties: { next: { $ref: "#" } } };
    expect(refusal(() => fillSchema(endless, "A chain.")).message).toContain("at most 64 levels");
    const loop = {
      $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
      $ref: "#/$defs/a",
    };
    expect(refusal(() => fillSchema(loop, "A loop.")).message).toContain("at most 32 $ref steps");
  });

  it("keeps minLength when it cuts a string to maxLength, and reaches a long minLength", () => {
    const text =
      "A fox crosses a frozen river at night, under a sky full of stars and a thin moon.";
    const note = (minLength: number, maxLength: number) =>
      (
        fillSchema(
          { type: "object", properties: { note: { type: "string", minLength, maxLength } } },
          text,
        ) as { note: string }
      ).note;
    const cut = note(78, 80);
    expect(cut.length).toBeGreaterThanOrEqual(78);
    expect(cut.length).toBeLessThanOrEqual(80);
    expect(note(100_000, 1_000_000).length).toBeGreaterThanOrEqual(100_000);
  });
});
