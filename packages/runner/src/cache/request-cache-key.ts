import type { StepCachePolicy } from "../steps/step-kind.js";
import type { CacheLocation } from "./cache-index.js";
import { cacheKey } from "./cache-key.js";
import { type ModelRouting, requestService } from "./service-identity.js";

/** Where an estimate looks for the results of requests known before a run. */
export interface EstimateCache {
  location: string | CacheLocation;
  /** The run's service, as its units key their results (`serviceIdentity`, or the built-in). */
  service: string;
  /**
   * The run's client, or what routes its models: a request of a model routed to another
   * provider account is keyed by that account's service, as its unit keys it.
   */
  routing?: ModelRouting | undefined;
}

/**
 * The key a request's result is cached under, the same for its unit and for every estimate
 * of it: by the service that answers it ({@link requestService}), with its kind's policy
 * (`ignore`d fields, `inputFiles` by their bytes). Rejects when a file it names cannot be read.
 * @example await requestCacheKey(kind.kind, kind.cache ?? {}, spec, pipelineDir, { service, routing: client })
 */
export async function requestCacheKey(
  kind: string,
  policy: Pick<StepCachePolicy, "ignore" | "inputFiles">,
  spec: Record<string, unknown>,
  baseDir: string,
  by: Pick<EstimateCache, "service" | "routing">,
): Promise<string> {
  return cacheKey(kind, spec, baseDir, {
    service: requestService(by.service, by.routing, spec.model),
    ...(policy.ignore ? { ignore: policy.ignore } : {}),
    ...(policy.inputFiles ? { inputFiles: policy.inputFiles } : {}),
  });
}
