// Seam to @reelsmith/simulator (see runner-api.ts for why it looks exports up at run time).
import * as simulatorModule from "@reelsmith/simulator";
import { CliError } from "../errors/cli-error.js";

/** A running simulator (the parts the CLI uses). */
export interface SimulatorView {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Options the CLI passes to `startSimulator`. */
export interface SimulatorStartOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  timeScale?: number;
  seed?: number;
  faults?: string;
}

/** The simulator exports the CLI uses, as agreed in the contracts. */
export interface SimulatorApi {
  startSimulator(options?: SimulatorStartOptions): Promise<SimulatorView>;
}

const exported = simulatorModule as unknown as Partial<SimulatorApi>;

/**
 * Start the simulator, or fail with a CliError when this build lacks it.
 *
 * @example
 * const simulator = await startSimulator({ timeScale: 0.01 });
 */
export function startSimulator(options?: SimulatorStartOptions): Promise<SimulatorView> {
  const start = exported.startSimulator;
  if (typeof start !== "function") {
    throw new CliError("this build of @reelsmith/simulator does not provide startSimulator()", {
      code: "simulator_missing_export",
      hint: "rebuild the workspace (pnpm build) or pass --base-url of a running service",
    });
  }
  return start(options);
}
