import { it } from "vitest";
import type { ContractCaseName, ContractRunOptions } from "./harness.js";
import type { ContractContext } from "./index.js";

/** Defines one contract case, skipped (with its reason) for an executor that says so. */
export function contractCase(
  context: ContractContext,
  name: ContractCaseName,
  body: () => Promise<void>,
): void {
  it(name, async (test) => {
    const reason = context.harness().skip?.[name];
    if (reason) {
      test.skip(reason);
      return;
    }
    await body();
  });
}

/** Run options pointing at the contract's simulator. */
export function serviceOptions(
  context: ContractContext,
  extra: Partial<ContractRunOptions> = {},
): ContractRunOptions {
  const simulator = context.simulator();
  return { baseURL: simulator.url, apiKey: simulator.apiKey, ...extra };
}

/** A unique word, so that runs of different cases never share cache entries. */
export function uniqueWord(): string {
  return `w${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
