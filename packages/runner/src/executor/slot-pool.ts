/**
 * A counting semaphore whose slots are taken and given back explicitly, so that a unit of
 * work can let go of its slot while it waits for something else (a video slot) and take
 * one again afterwards. Waiters are served first come, first served.
 */
export class SlotPool {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) {
      throw new TypeError(`Expected a slot count of at least 1; got ${String(size)}`);
    }
    this.#free = size;
  }

  /** Slots in use. */
  get active(): number {
    return this.size - this.#free;
  }

  /** Callers waiting for a slot. */
  get pending(): number {
    return this.#waiting.length;
  }

  /** Resolves once a slot is taken by the caller. */
  acquire(): Promise<void> {
    if (this.#free > 0 && this.#waiting.length === 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Gives a slot back (to the first waiter, if any). */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else if (this.#free < this.size) this.#free++;
  }

  /** A holder of at most one slot of this pool, safe to release twice. */
  holder(): SlotHolder {
    let held = false;
    return {
      acquire: async () => {
        if (held) return;
        await this.acquire();
        held = true;
      },
      release: () => {
        if (!held) return;
        held = false;
        this.release();
      },
    };
  }
}

/** One unit's claim on a {@link SlotPool}. */
export interface SlotHolder {
  acquire(): Promise<void>;
  release(): void;
}

/** Runs work within a limit (p-limit's call shape). */
export type LimitRunner = <T>(work: () => PromiseLike<T> | T) => Promise<T>;

/**
 * A queue's limit as a unit sees it: its global slot is given back while it waits for a slot
 * of its queue (waiting holds nothing else) and taken again once that slot is granted.
 */
export function queueSlotFor(unit: SlotHolder, queueLimit: LimitRunner): LimitRunner {
  return async <T>(work: () => PromiseLike<T> | T): Promise<T> => {
    unit.release();
    try {
      return await queueLimit(async () => {
        await unit.acquire();
        return work();
      });
    } finally {
      // The unit carries on (download, outputs) holding a global slot, as before.
      await unit.acquire();
    }
  };
}
