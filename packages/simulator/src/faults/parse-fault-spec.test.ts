import { describe, expect, it } from "vitest";
import { FaultSpecError } from "../errors/fault-spec-error.js";
import { createFaultInjector } from "./fault-injector.js";
import { parseFaultSpec } from "./parse-fault-spec.js";

describe("parseFaultSpec", () => {
  it("parses the CLI form with probabilities, sequences, targets and values", () => {
    expect(
      parseFaultSpec(
        "429@chat:0.3,503@videos.create:#1#2,fail-job:0.2,drop@chat:#3,slow@models:1:250",
      ),
    ).toEqual({
      rules: [
        { kind: "429", target: "chat", probability: 0.3 },
        { kind: "503", target: "videos.create", sequence: [1, 2] },
        { kind: "fail-job", target: "*", probability: 0.2 },
        { kind: "drop", target: "chat", sequence: [3] },
        { kind: "slow", target: "models", probability: 1, value: 250 },
      ],
    });
    expect(parseFaultSpec(" ")).toEqual({ rules: [] });
    expect(parseFaultSpec("fail-job@reel-video-1:#2").rules[0]).toMatchObject({
      target: "reel-video-1",
      sequence: [2],
    });
  });

  it("rejects what it cannot understand, naming the entry", () => {
    for (const bad of [
      "429",
      "418@chat:0.5",
      "429@chat:1.5",
      "429@moon:0.1",
      "drop@chat:#0",
      "429@chat:#a",
    ]) {
      const attempt = () => parseFaultSpec(`500:0.1,${bad}`);
      expect(attempt, bad).toThrow(FaultSpecError);
      try {
        attempt();
      } catch (error) {
        expect((error as FaultSpecError).entry).toBe(bad);
        expect((error as FaultSpecError).code).toBe("fault_spec_invalid");
      }
    }
  });
});

describe("createFaultInjector", () => {
  it("fires sequences on the matching requests, counted per rule", () => {
    const faults = createFaultInjector("503@videos:#2,429@chat:#1#3", 0);
    expect(
      ["chat", "chat", "chat", "chat"].map((route) => faults.forRequest(route as "chat")?.kind),
    ).toEqual(["429", undefined, "429", undefined]);
    expect(faults.forRequest("videos.create")).toBeUndefined();
    expect(faults.forRequest("videos.retrieve")).toEqual({ kind: "503" });
    expect(faults.forRequest("models")).toBeUndefined();
  });

  it("draws probabilities from the seed: same seed, same faults", () => {
    const draw = (seed: number) => {
      const faults = createFaultInjector(
        { rules: [{ kind: "500", target: "*", probability: 0.5 }] },
        seed,
      );
      return Array.from({ length: 40 }, () => faults.forRequest("chat")?.kind ?? "-").join("");
    };
    expect(draw(3)).toBe(draw(3));
    expect(draw(3)).not.toBe(draw(4));
    expect(draw(3)).toContain("500");
    expect(draw(3)).toContain("-");
  });

  it("fails jobs by model", () => {
    const faults = createFaultInjector("fail-job@reel-video-2-lite:1", 0);
    expect(faults.failsJob("reel-video-1")).toBe(false);
    expect(faults.failsJob("reel-video-2-lite")).toBe(true);
  });
});
