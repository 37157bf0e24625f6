import { setTimeout as sleep } from "node:timers/promises";

/**
 * A worker's own fence: it may start something paid, or write, only while the heartbeat the
 * database last recorded for it was sent less than half its grace ago. The others judge it
 * dead only after a whole grace without one, so a worker that stops itself at half finds out
 * first: it waits to renew its heartbeat, and then learns from its claims whether it still
 * owns its units.
 *
 * Elapsed time is measured on both the monotonic clock (immune to the wall clock being set)
 * and the wall clock (which, unlike the monotonic one on Linux, counts a suspended machine):
 * the fence holds if either says the heartbeat is too old.
 */
export interface SelfFence {
  /** How long after a heartbeat was sent the worker stops writing (half its grace, ms). */
  readonly limitMs: number;
  /** True while the last recorded heartbeat was sent less than `limitMs` ago. */
  fresh(): boolean;
  /** Records a heartbeat the database recorded, sent at `sent` ({@link fenceClock}). */
  renewed(sent: FenceTime): void;
  /**
   * Resolves once fresh, asking for a heartbeat at once when not; rejects when `signal` aborts.
   */
  untilFresh(signal?: AbortSignal): Promise<void>;
  /**
   * Asks for a heartbeat now (sharing one already in flight) and resolves once it is recorded
   * or not: just before something paid leaves, so that the others' whole grace, not what is
   * left of half of it, separates it from any hand-over of its unit.
   */
  renew(): Promise<void>;
}

/** A moment on both clocks. */
export interface FenceTime {
  monotonic: number;
  wall: number;
}

/** Now, on both clocks. */
export function fenceClock(): FenceTime {
  return { monotonic: performance.now(), wall: Date.now() };
}

/**
 * A worker's fence with a limit of `limitMs`; `beatNow` renews its heartbeat (once, however
 * many wait) and says whether the database recorded it.
 * @example const fence = createSelfFence({ limitMs: graceMs / 2, beatNow: () => liveness.beatNow() });
 */
export function createSelfFence(options: {
  limitMs: number;
  beatNow: () => Promise<boolean>;
  /** Told when the fence closes (first seen) and opens again. */
  onChange?: (fenced: boolean, sinceMs: number) => void;
}): SelfFence {
  const { limitMs } = options;
  let last: FenceTime | undefined;
  let fenced = false;
  const age = () => {
    if (!last) return Number.POSITIVE_INFINITY;
    const now = fenceClock();
    const wall = now.wall - last.wall;
    // A wall clock set back reads as stale: nothing is trusted until a new heartbeat.
    return wall < 0 ? Number.POSITIVE_INFINITY : Math.max(now.monotonic - last.monotonic, wall);
  };
  const fence: SelfFence = {
    limitMs,
    fresh() {
      const ok = age() < limitMs;
      if (!ok && !fenced && last) {
        fenced = true;
        options.onChange?.(true, age());
      }
      return ok;
    },
    renewed(sent) {
      if (!last || sent.monotonic >= last.monotonic) last = sent;
      if (fenced && age() < limitMs) {
        fenced = false;
        options.onChange?.(false, 0);
      }
    },
    async renew() {
      await options.beatNow().catch(() => false);
    },
    async untilFresh(signal) {
      for (let delay = 50; !fence.fresh(); delay = Math.min(delay * 2, 1000)) {
        signal?.throwIfAborted();
        const recorded = await options.beatNow().catch(() => false);
        if (recorded && fence.fresh()) return;
        await sleep(delay, undefined, signal ? { signal } : {});
      }
    },
  };
  return fence;
}
