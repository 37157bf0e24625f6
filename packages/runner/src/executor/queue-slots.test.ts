import { describe, expect, it } from "vitest";
import { videoKind } from "../steps/video/index.js";
import { accountQueue, queueSlot, queueSlots } from "./queue-slots.js";

/** A promise with its resolve, to hold work open until the test lets it go. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("queueSlot with provider accounts", () => {
  it("holds an account's units to its own limit within the queue's, and leaves other accounts to the queue's", async () => {
    const slots = queueSlots([videoKind], { video: 3, [accountQueue("video", "fal")]: 1 });
    const running = { fal: 0, other: 0, most: { fal: 0, other: 0 } };
    const gates: ReturnType<typeof deferred>[] = [];
    const started: ReturnType<typeof deferred>[] = [];
    const unit = (account: "fal" | "other") => {
      const gate = deferred();
      const start = deferred();
      gates.push(gate);
      started.push(start);
      const limit = queueSlot(slots, "video", account === "fal" ? "fal" : undefined);
      return limit(async () => {
        running[account] += 1;
        running.most[account] = Math.max(running.most[account], running[account]);
        start.resolve();
        await gate.promise;
        running[account] -= 1;
      });
    };
    const all = [unit("fal"), unit("fal"), unit("other"), unit("other")];
    // The first fal unit and both others start; the second fal unit waits for the first.
    await Promise.all([started[0]?.promise, started[2]?.promise, started[3]?.promise]);
    expect(running).toMatchObject({ fal: 1, other: 2 });
    gates[0]?.resolve();
    await started[1]?.promise;
    for (const gate of gates) gate.resolve();
    await Promise.all(all);
    expect(running.most).toEqual({ fal: 1, other: 2 });
  });

  it("is the queue's own limit for a unit whose account has none", () => {
    const slots = queueSlots([videoKind], { video: 2 });
    expect(queueSlot(slots, "video", "voice")).toBe(slots.video);
    expect(accountQueue("video", "fal")).toBe("video@fal");
  });
});
