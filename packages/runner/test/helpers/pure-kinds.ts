import { Type } from "@sinclair/typebox";
import { defineStepKind } from "../../src/steps/define-step-kind.js";
import type { StepKind } from "../../src/steps/step-kind.js";

/** A pure step kind for executor tests: echoes `value`, fails when `fail` is set, waits `delay` ms. */
export function echoKind(log: string[] = []): StepKind {
  const failures = new Map<string, number>();
  return defineStepKind({
    kind: "echo",
    schema: Type.Object({}),
    async run(spec, context) {
      const key = `${context.stepId}:${context.index ?? "-"}`;
      log.push(`start ${key}`);
      if (typeof spec.delay === "number") {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, spec.delay as number);
          context.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(context.signal.reason);
          });
        });
      }
      const failTimes = Number(spec.failTimes ?? 0);
      const failed = failures.get(key) ?? 0;
      if (spec.fail || failed < failTimes) {
        failures.set(key, failed + 1);
        throw new Error(`echo ${key} failed on purpose`);
      }
      log.push(`end ${key}`);
      return { value: spec.value, usage: spec.usage };
    },
  });
}
