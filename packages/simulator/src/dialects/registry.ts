import type { ProviderName } from "@reelsmith/core/catalog";
import { elevenlabsDialect } from "./elevenlabs/index.js";
import { falDialect } from "./fal/index.js";
import { klingDialect } from "./kling/index.js";
import { openaiDialect } from "./openai/index.js";
import { referenceDialect } from "./reference/index.js";
import { replicateDialect } from "./replicate/index.js";
import type { SimulatorDialect } from "./simulator-dialect.js";

/**
 * The simulator's dialect of every provider of core's registry, one line each: a provider
 * core speaks that the simulator does not is a type error here.
 */
export const simulatorDialects: Readonly<Record<ProviderName, SimulatorDialect>> = {
  reference: referenceDialect,
  openai: openaiDialect,
  fal: falDialect,
  replicate: replicateDialect,
  kling: klingDialect,
  elevenlabs: elevenlabsDialect,
};

/** The dialect of a provider name, or a TypeError naming those there are. */
export function simulatorDialect(name: string): SimulatorDialect {
  if (!Object.hasOwn(simulatorDialects, name)) {
    throw new TypeError(
      `Expected \`dialect\` to be one of ${Object.keys(simulatorDialects)
        .map((known) => JSON.stringify(known))
        .join(", ")}; got ${JSON.stringify(name)}`,
    );
  }
  return simulatorDialects[name as ProviderName];
}
