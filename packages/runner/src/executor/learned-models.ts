import type { ListedModel } from "@reelsmith/core/profile";
import type { ModelCatalogs } from "../steps/step-kind.js";

/**
 * How long a service's model list read by a run is used again by the next runs of this
 * process on the same client: long enough for a program that runs many pipelines in a row,
 * short enough that a model the service adds or drops is seen soon. A model the list does not
 * show, or a value its limits refuse, is always judged again with a list read then.
 */
export const MODEL_LIST_KEPT_MS = 60_000;

/** What a passing check of a run's models gave: the run's catalogs, and its warnings. */
export interface ModelCheckOutcome {
  catalogs: ModelCatalogs | undefined;
  warnings: string[];
}

interface Kept<T> {
  at: number;
  value: T;
}

const lists = new WeakMap<object, Kept<Promise<ListedModel[]>>>();
const outcomes = new WeakMap<object, Map<string, Kept<ModelCheckOutcome>>>();
const ids = new WeakMap<object, number>();
const none = {};
let lastId = 0;
/** How many passing checks are kept per client. */
const OUTCOMES_KEPT = 32;

function idOf(value: object | undefined): number {
  const key = value ?? none;
  const known = ids.get(key);
  if (known !== undefined) return known;
  lastId += 1;
  ids.set(key, lastId);
  return lastId;
}

const fresh = <T>(kept: Kept<T> | undefined, now: number): kept is Kept<T> =>
  kept !== undefined && now - kept.at < MODEL_LIST_KEPT_MS;

/**
 * The model list and passing checks a client's runs share in this process, for
 * {@link MODEL_LIST_KEPT_MS}: the list is read once (a failed read is not kept), and the
 * verdict of an inline pipeline (whose models name no other file) with the same text,
 * inputs, kinds and catalogs is the one given with that list. `forget()` drops what the
 * client kept (before a check is made again with a list read now).
 * @example const learned = learnedModels(client); const models = await learned.list(() => client.models.list());
 */
export function learnedModels(client: object) {
  return {
    /** The client's list: the one read within the last minute, else read now. */
    list(read: () => Promise<ListedModel[]>): Promise<ListedModel[]> {
      const now = Date.now();
      const kept = lists.get(client);
      if (fresh(kept, now)) return kept.value;
      const value = read();
      lists.set(client, { at: now, value });
      value.catch(() => {
        if (lists.get(client)?.value === value) lists.delete(client);
      });
      return value;
    },
    /** True when the list used next comes from an earlier read. */
    listKept(): boolean {
      return fresh(lists.get(client), Date.now());
    },
    /** The key of a check that may be kept: an inline pipeline's, else undefined. */
    key(check: {
      path: string;
      hash: string;
      inputs: unknown;
      kinds: object | undefined;
      catalogs: object | undefined;
    }): string | undefined {
      if (check.path !== "<inline>") return undefined;
      return `${idOf(check.kinds)}:${idOf(check.catalogs)}:${check.hash}:${JSON.stringify(check.inputs ?? {})}`;
    },
    /** A passing check kept under `key`, made with the list still kept. */
    outcome(key: string | undefined): ModelCheckOutcome | undefined {
      if (key === undefined) return undefined;
      const kept = outcomes.get(client)?.get(key);
      const list = lists.get(client);
      return fresh(kept, Date.now()) && fresh(list, Date.now()) && kept.at >= list.at
        ? kept.value
        : undefined;
    },
    keep(key: string | undefined, outcome: ModelCheckOutcome): void {
      if (key === undefined) return;
      const kept = outcomes.get(client) ?? new Map<string, Kept<ModelCheckOutcome>>();
      outcomes.set(client, kept);
      if (kept.size >= OUTCOMES_KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(key, { at: Date.now(), value: outcome });
    },
    forget(): void {
      lists.delete(client);
      outcomes.delete(client);
    },
  };
}
