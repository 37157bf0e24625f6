import { describe, expect, it } from "vitest";
import { queueSlotFor, SlotPool } from "./slot-pool.js";

describe("SlotPool", () => {
  it("serves waiters first come, first served and counts slots", async () => {
    const pool = new SlotPool(1);
    await pool.acquire();
    const order: string[] = [];
    const a = pool.acquire().then(() => order.push("a"));
    const b = pool.acquire().then(() => order.push("b"));
    expect([pool.active, pool.pending]).toEqual([1, 2]);
    pool.release();
    await a;
    pool.release();
    await b;
    expect(order).toEqual(["a", "b"]);
    pool.release();
    expect([pool.active, pool.pending]).toEqual([0, 0]);
  });

  it("a holder releases at most the slot it holds", async () => {
    const pool = new SlotPool(2);
    const holder = pool.holder();
    await holder.acquire();
    await holder.acquire();
    expect(pool.active).toBe(1);
    holder.release();
    holder.release();
    expect(pool.active).toBe(0);
  });

  it("refuses a size below one", () => {
    expect(() => new SlotPool(0)).toThrow(/at least 1/);
  });

  it("gives the global slot back while waiting for a video slot, and holds it again after", async () => {
    const global = new SlotPool(1);
    const video = new SlotPool(1);
    const videoLimit = async <T>(work: () => PromiseLike<T> | T): Promise<T> => {
      await video.acquire();
      try {
        return await work();
      } finally {
        video.release();
      }
    };
    await video.acquire(); // another job is in flight
    const unit = global.holder();
    await unit.acquire();
    const waiting = queueSlotFor(unit, videoLimit)(() => global.active);
    await Promise.resolve();
    expect(global.active).toBe(0); // free for other work while waiting
    const other = global.holder();
    await other.acquire();
    other.release();
    video.release();
    expect(await waiting).toBe(1); // the video work ran holding the global slot
    expect(global.active).toBe(1);
    unit.release();
    expect(global.active).toBe(0);
  });
});
