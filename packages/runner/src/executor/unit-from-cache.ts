import type { CacheIndex, CacheLocation } from "../cache/cache-index.js";
import { requestCacheKey } from "../cache/request-cache-key.js";
import { serviceIdentity } from "../cache/service-identity.js";
import { cacheLocation, restoreFromCache } from "../cache/step-cache.js";
import { addTotals, countMade, emptyTotals, type RunTotals } from "../events/run-event.js";
import type { JournalWriter } from "../journal/journal.js";
import type { ItemState } from "../journal/journal-state.js";
import { createUnitLedger } from "../ledger/unit-ledger.js";
import type { StepKind, StepRunContext } from "../steps/step-kind.js";
import { type Artifact, artifactsOf } from "./artifacts.js";
import { resolveOutputPath } from "./resolve-output-path.js";

/**
 * A unit's cache key (none when its step or kind is not cached) and where its entries are.
 * @example const { policy, key, cache } = await unitCacheKey(work, services);
 */
export async function unitCacheKey(
  work: { cache: boolean; kind: StepKind; spec: Record<string, unknown> },
  services: {
    extras: { pipelineDir: string };
    service?: string | undefined;
    client: StepRunContext["client"];
    cacheIndex?: CacheIndex | undefined;
    cacheDir: string;
  },
): Promise<{ policy: StepKind["cache"]; key: string | undefined; cache: CacheLocation }> {
  const kindName = work.kind.kind;
  const policy = work.cache ? work.kind.cache : undefined;
  const key = policy
    ? await requestCacheKey(kindName, policy, work.spec, services.extras.pipelineDir, {
        service: services.service ?? serviceIdentity(services.client?.baseURL),
        routing: services.client,
      })
    : undefined;
  const cache = cacheLocation(
    services.cacheIndex
      ? { dir: services.cacheDir, index: services.cacheIndex }
      : services.cacheDir,
  );
  return { policy, key, cache };
}

/** Where a unit's cached result is looked for, and how its end is journaled. */
export interface UnitCacheLookup {
  key: string;
  cache: CacheLocation;
  policy: StepKind["cache"];
  /** Journals one of the unit's item records. */
  record(entry: Record<string, unknown> & { type: string }): Promise<void>;
}

/**
 * A unit served from the cache when an identical request was seen: its files placed where
 * the step puts them, nothing spent but what the result cost when it was made saved in the
 * ledger, its end journaled. Undefined when the cache has no such result.
 * @example const served = await unitFromCache(work, services, { key, cache, policy, record });
 */
export async function unitFromCache(
  work: {
    stepId: string;
    index?: number;
    kind: StepKind;
    spec: Record<string, unknown>;
    previous?: ItemState;
  },
  services: { runDir: string; journal: JournalWriter },
  lookup: UnitCacheLookup,
): Promise<
  | {
      outputs: Record<string, unknown>;
      totals: RunTotals;
      cached: true;
      artifacts: Record<string, Artifact>;
    }
  | undefined
> {
  const { stepId, index } = work;
  const at = index === undefined ? {} : { index };
  const { key, cache, policy, record } = lookup;
  const places = policy?.placeFiles?.(work.spec as never, { stepId, ...at }) ?? {};
  for (const path of Object.values(places)) resolveOutputPath(services.runDir, path);
  const restored = await restoreFromCache(cache, key, services.runDir, places);
  if (restored) {
    const revived = policy?.revive?.(restored.outputs, work.spec as never);
    const hit = revived ? { ...restored, outputs: revived } : restored;
    // Nothing spent; what the result cost when it was made was saved (as its entry says,
    // else as its kind reads its outputs).
    const worth = addTotals(emptyTotals(), hit.entry.worth ?? work.kind.totals(hit.outputs));
    const ledger = createUnitLedger(
      services.journal,
      stepId,
      index,
      undefined,
      work.previous?.ledger,
    );
    // Made durable with the unit's end (or its step's), which is awaited after it.
    ledger
      .record({
        totals: { savedCredits: worth.credits, jobsCached: countMade(worth.made) },
        key: "cached",
      })
      .catch(() => undefined);
    const totals = { ...ledger.totals(), cachedSteps: 1 };
    const artifacts = await artifactsOf(hit.outputs, services.runDir);
    await record({ type: "item.end", outputs: hit.outputs, totals, cached: true, artifacts });
    return { outputs: hit.outputs, totals, cached: true, artifacts };
  }
}
