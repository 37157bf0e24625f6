import { describe, expect, it } from "vitest";
import { defineStepKind } from "./define-step-kind.js";
import { builtInStepKinds, isBuiltInKindSet, kindOf, kindsByName } from "./registry.js";

describe("the step kind registry", () => {
  it("lists each built-in kind once, each answering every question about itself", async () => {
    const names = builtInStepKinds.map((kind) => kind.kind);
    expect(new Set(names).size).toBe(names.length);
    for (const kind of builtInStepKinds) {
      expect(["video", "chat", "local"]).toContain(kind.queue);
      expect(kind.outputs({}).type).toBe("object");
      expect(Array.isArray(kind.files({}))).toBe(true);
      expect(typeof kind.totals({})).toBe("object");
      const schema = await kind.schema();
      expect(schema.type).toBe("object");
    }
  });

  it("tells the built-in set from sets with custom or missing kinds", () => {
    const names = builtInStepKinds.map((kind) => kind.kind);
    expect(isBuiltInKindSet([...names].reverse())).toBe(true);
    expect(isBuiltInKindSet(names.slice(1))).toBe(false);
    expect(isBuiltInKindSet([...names, "echo"])).toBe(false);
  });

  it("finds a step's one kind, and none when it holds none or several", () => {
    const echo = defineStepKind({
      kind: "echo",
      schema: { type: "object" } as never,
      run: async () => ({}),
    });
    const kinds = kindsByName([...builtInStepKinds, echo]);
    expect(kindOf({ id: "a", echo: {} }, kinds)?.kind).toBe("echo");
    expect(kindOf({ id: "a" }, kinds)).toBeUndefined();
    const [first, second] = builtInStepKinds;
    expect(kindOf({ id: "a", [first!.kind]: {}, [second!.kind]: {} }, kinds)).toBeUndefined();
  });

  it("fills what a kind leaves out with the neutral answers", async () => {
    const bare = defineStepKind({
      kind: "bare",
      schema: { type: "object" } as never,
      run: async () => ({}),
    });
    expect(bare.queue).toBe("local");
    expect(bare.files({})).toEqual([]);
    expect(bare.models).toEqual([]);
    expect(bare.plan({}, {})).toEqual({});
    expect(bare.totals({ credits: 4, usage: { prompt_tokens: 1, completion_tokens: 2 } })).toEqual({
      credits: 4,
      promptTokens: 1,
      completionTokens: 2,
      totalTokens: 3,
    });
    expect(await bare.schema()).toEqual({ type: "object" });
    expect(defineStepKind(bare)).toBe(bare);
  });
});
