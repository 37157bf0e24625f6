import { FaultSpecError } from "../errors/fault-spec-error.js";
import {
  type FaultKind,
  type FaultRule,
  type FaultSpec,
  faultKinds,
  requestTargets,
} from "./fault-spec.js";

/**
 * Parse the CLI form of a fault spec: comma-separated entries `KIND[@TARGET]:WHEN[:VALUE]` where
 * WHEN is a probability (`0.3`) or a sequence of matching requests (`#1#3`), and VALUE is the
 * kind's number (Retry-After seconds, delay ms, chunks before a drop).
 *
 * @example
 * parseFaultSpec("429@chat:0.3,503@videos.create:#1#2,fail-job:0.2,drop@chat:#3");
 * parseFaultSpec("429@chat:#1:2,slow@videos.retrieve:1:250");
 */
export function parseFaultSpec(text: string): FaultSpec {
  const rules: FaultRule[] = [];
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const match = /^([\w-]+)(?:@([\w.*-]+))?:(#\d+(?:#\d+)*|\d*\.?\d+)(?::(\d*\.?\d+))?$/.exec(
      entry,
    );
    if (!match) {
      throw new FaultSpecError(
        `Expected a fault entry like 429@chat:0.3 or drop@chat:#1#2 (KIND[@TARGET]:WHEN[:VALUE]); got ${JSON.stringify(entry)}`,
        entry,
      );
    }
    const [, kind = "", target, when = "", value] = match;
    const rule: FaultRule = { kind: kind as FaultKind, target: target ?? "*" };
    if (when.startsWith("#")) rule.sequence = when.slice(1).split("#").map(Number);
    else rule.probability = Number(when);
    if (value !== undefined) rule.value = Number(value);
    validateFaultRule(rule, entry);
    rules.push(rule);
  }
  return { rules };
}

/** Check one rule (from the option or the string form); throws {@link FaultSpecError}. */
export function validateFaultRule(rule: FaultRule, entry = JSON.stringify(rule)): void {
  if (!faultKinds.includes(rule.kind)) {
    throw new FaultSpecError(
      `Expected a fault kind among ${faultKinds.join(", ")}; got ${JSON.stringify(rule.kind)}`,
      entry,
    );
  }
  const target = rule.target ?? "*";
  if (rule.kind !== "fail-job" && !requestTargets.includes(target)) {
    throw new FaultSpecError(
      `Expected a fault target among ${requestTargets.join(", ")}; got ${JSON.stringify(target)}`,
      entry,
    );
  }
  const hasProbability = rule.probability !== undefined;
  if (hasProbability === (rule.sequence !== undefined)) {
    throw new FaultSpecError(
      "Expected a fault rule to have either a probability or a sequence",
      entry,
    );
  }
  if (hasProbability && !(Number(rule.probability) >= 0 && Number(rule.probability) <= 1)) {
    throw new FaultSpecError(`Expected a probability from 0 to 1; got ${rule.probability}`, entry);
  }
  if (rule.sequence && !rule.sequence.every((n) => Number.isInteger(n) && n >= 1)) {
    throw new FaultSpecError("Expected sequence numbers to be integers from 1 up (#1#3)", entry);
  }
  if (rule.value !== undefined && !(Number.isFinite(rule.value) && rule.value >= 0)) {
    throw new FaultSpecError(
      `Expected the value to be a number from 0 up; got ${rule.value}`,
      entry,
    );
  }
}
