import { createSeededRandom, type RandomSource } from "../util/seeded-random.js";
import type { FaultRule, FaultSpec } from "./fault-spec.js";
import { parseFaultSpec, validateFaultRule } from "./parse-fault-spec.js";

/** A fault chosen for one request or job. */
export interface ChosenFault {
  kind: FaultRule["kind"];
  value?: number;
}

/** The route family a request belongs to, as fault targets name them. */
export type FaultRoute =
  | "chat"
  | "videos.create"
  | "videos.list"
  | "videos.retrieve"
  | "videos.content"
  | "models"
  | "images"
  | "audio.speech"
  | "audio.transcriptions";

/**
 * Decides, deterministically, which requests get which fault: each rule keeps its own counter of
 * matching requests and its own seeded generator, so a given seed and request order always
 * produce the same faults.
 *
 * @example
 * const faults = createFaultInjector("429@chat:#1", 7);
 * faults.forRequest("chat"); // { kind: "429" }
 * faults.forRequest("chat"); // undefined
 */
export function createFaultInjector(spec: FaultSpec | string | undefined, seed: number) {
  const parsed: FaultSpec =
    typeof spec === "string" ? parseFaultSpec(spec) : (spec ?? { rules: [] });
  const rules = parsed.rules.map((rule, index) => {
    validateFaultRule(rule);
    return { rule, count: 0, random: createSeededRandom(seed, "fault", index) as RandomSource };
  });

  function fires(state: (typeof rules)[number]): boolean {
    state.count += 1;
    const { rule } = state;
    if (rule.sequence) return rule.sequence.includes(state.count);
    return state.random() < (rule.probability ?? 0);
  }

  function choose(matches: (rule: FaultRule) => boolean): ChosenFault | undefined {
    let chosen: ChosenFault | undefined;
    for (const state of rules) {
      if (!matches(state.rule)) continue;
      // Every matching rule counts the request, so sequences stay aligned with what the client sent.
      if (fires(state) && !chosen) {
        chosen = { kind: state.rule.kind };
        if (state.rule.value !== undefined) chosen.value = state.rule.value;
      }
    }
    return chosen;
  }

  return {
    /** The fault for one request to `route`, if any. */
    forRequest(route: FaultRoute): ChosenFault | undefined {
      return choose((rule) => {
        if (rule.kind === "fail-job") return false;
        const target = rule.target ?? "*";
        return (
          target === "*" ||
          target === route ||
          (target === "videos" && route.startsWith("videos.")) ||
          (target === "audio" && route.startsWith("audio."))
        );
      });
    },
    /** Whether a newly created job of `model` should end failed. */
    failsJob(model: string): boolean {
      return (
        choose(
          (rule) =>
            rule.kind === "fail-job" && ((rule.target ?? "*") === "*" || rule.target === model),
        ) !== undefined
      );
    },
  };
}

/** The injector made by {@link createFaultInjector}. */
export type FaultInjector = ReturnType<typeof createFaultInjector>;
