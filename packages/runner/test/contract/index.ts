import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe } from "vitest";
import {
  budgetEstimateCase,
  budgetFanOutCase,
  budgetPartialKnownCase,
  budgetPartialRefusedCase,
  budgetReservationCase,
} from "./budget.case.js";
import { cacheCase } from "./cache.case.js";
import { dagCase } from "./dag.case.js";
import { failureCase } from "./failure.case.js";
import { gateCase } from "./gate.case.js";
import type { ExecutorHarness } from "./harness.js";
import { lifecycleCase } from "./lifecycle.case.js";
import { imageCase, speechCase } from "./media.case.js";

export * from "./harness.js";

/** What each case receives: the executor and the simulator it runs against. */
export interface ContractContext {
  harness(): ExecutorHarness;
  simulator(): Simulator;
}

/**
 * The executor contract: every executor (local file journal, DBOS on PostgreSQL) runs these
 * cases against one simulator. `setup` gives the harness (and may start servers); `teardown`
 * stops them.
 * @example describeExecutorContract("local", async () => localHarness(), async () => {});
 */
export function describeExecutorContract(
  name: string,
  setup: () => Promise<ExecutorHarness>,
  teardown: () => Promise<void> = async () => undefined,
): void {
  describe(`executor contract: ${name}`, () => {
    let harness: ExecutorHarness | undefined;
    let simulator: Simulator | undefined;
    beforeAll(async () => {
      // Jobs take ~0.3 s of simulated processing: long enough to overlap, short for CI.
      simulator = await startSimulator({ timeScale: 0.05 });
      harness = await setup();
    });
    afterAll(async () => {
      await teardown();
      await simulator?.close();
    });
    const context: ContractContext = {
      harness: () => {
        if (!harness) throw new Error("the contract's harness did not start");
        return harness;
      },
      simulator: () => {
        if (!simulator) throw new Error("the contract's simulator did not start");
        return simulator;
      },
    };
    dagCase(context);
    failureCase(context);
    budgetEstimateCase(context);
    budgetReservationCase(context);
    budgetFanOutCase(context);
    budgetPartialKnownCase(context);
    budgetPartialRefusedCase(context);
    cacheCase(context);
    gateCase(context);
    speechCase(context);
    imageCase(context);
    lifecycleCase(context);
  });
}
