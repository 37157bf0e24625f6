import { describe, expect, it } from "vitest";
import { fillSchema, groupSentences } from "./fill-schema.js";

describe("fillSchema", () => {
  const story = "Split this story into 3 scenes: A fox wakes. It runs. It jumps. It sleeps.";

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
});
