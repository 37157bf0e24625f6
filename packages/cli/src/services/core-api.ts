// Seam to @reelsmith/core (see runner-api.ts for why it looks exports up at run time).
import * as coreModule from "@reelsmith/core";
import { CliError } from "../errors/cli-error.js";

/** A model as listed by the service. */
export interface ModelView {
  id: string;
  owned_by?: string;
  [key: string]: unknown;
}

/** The limits of a video model. */
export interface VideoModelLimitsView {
  id: string;
  maxSeconds: number;
  sizes: readonly string[];
}

/** The client surface the CLI uses. */
export interface ClientView {
  baseURL: string;
  models: { list(options?: { signal?: AbortSignal }): Promise<ModelView[]> };
}

/** The core exports the CLI uses, as agreed in the contracts. */
export interface CoreApi {
  createClient(options?: {
    baseURL?: string;
    apiKey?: string;
    pollIntervalMs?: number;
    logger?: unknown;
  }): ClientView;
  referenceVideoModels: readonly VideoModelLimitsView[];
}

const exported = coreModule as unknown as Partial<CoreApi>;

/**
 * A core export by name, or a CliError saying this build of @reelsmith/core lacks it.
 *
 * @example
 * const client = core("createClient")({ baseURL, apiKey });
 */
export function core<K extends keyof CoreApi>(name: K): CoreApi[K] {
  const value = exported[name];
  if (value === undefined) {
    throw new CliError(`this build of @reelsmith/core does not provide ${name}`, {
      code: "core_missing_export",
      hint: "rebuild the workspace (pnpm build) or update @reelsmith/core",
    });
  }
  return value as CoreApi[K];
}
