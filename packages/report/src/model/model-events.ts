import type { RunEstimate, RunEvent } from "@reelsmith/runner";

const SINGLE_ITEM = -1;

/**
 * A unit's key in the report's maps: its step and item (a plain step's is its single unit).
 * @example unitKeyOf("clips", 2) // "clips#2"
 */
export const unitKeyOf = (step: string, index: number | undefined) =>
  `${step}#${index ?? SINGLE_ITEM}`;

/** What the event log tells of each unit and step beyond the journal. */
export interface EventFacts {
  /** Each unit's request as it was sent, by `unitKeyOf`. */
  requests: Map<string, Record<string, unknown>>;
  /** Each step's time, summed over the sessions that ran it. */
  durations: Map<string, number>;
  /** Units whose last result came from the cache (they spent nothing; they saved). */
  cachedUnits: Map<string, boolean>;
  /** The run's estimate as its latest session knew it (a take's own estimate left out). */
  estimate: RunEstimate | undefined;
}

/**
 * The requests, durations, cached units and first estimate of a run's event log.
 * @example const { requests, estimate } = eventFacts(record.events);
 */
export function eventFacts(events: readonly RunEvent[]): EventFacts {
  const facts: EventFacts = {
    requests: new Map(),
    durations: new Map(),
    cachedUnits: new Map(),
    estimate: undefined,
  };
  for (const event of events) {
    if (event.type === "step.request") {
      facts.requests.set(unitKeyOf(event.step, event.index), event.spec);
    } else if (event.type === "step.end" && !event.reused) {
      facts.durations.set(event.step, (facts.durations.get(event.step) ?? 0) + event.durationMs);
      facts.cachedUnits.set(unitKeyOf(event.step, undefined), event.cached);
    } else if (event.type === "item.end") {
      facts.cachedUnits.set(unitKeyOf(event.step, event.index), event.status === "cached");
    } else if (event.type === "run.estimate" && (event as { of?: string }).of !== "take") {
      // The last: the whole run's estimate as its latest session knew it.
      facts.estimate = event.estimate;
    }
  }
  return facts;
}

/**
 * Items of a fan-out: the largest `total` seen in events, else what the journal holds.
 * @example countItems("clips", state.steps.get("clips")?.items.size ?? 0, events) // 3
 */
export function countItems(step: string, journaled: number, events: readonly RunEvent[]): number {
  let total = journaled;
  for (const event of events) {
    if ((event.type === "item.start" || event.type === "item.end") && event.step === step) {
      total = Math.max(total, event.total);
    }
  }
  return total;
}
