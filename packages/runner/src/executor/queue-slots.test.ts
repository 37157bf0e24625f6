import { describe, expect, it } from "vitest";
import { defineStepKind } from "../steps/define-step-kind.js";
import { imageKind } from "../steps/image/index.js";
import { builtInStepKinds } from "../steps/registry.js";
import { speechKind } from "../steps/speech/index.js";
import { videoKind } from "../steps/video/index.js";
import {
  accountQueue,
  accountQueuesOf,
  accountSlotSizes,
  queueSlot,
  queueSlots,
  runQueueSlots,
} from "./queue-slots.js";

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
    const slots = queueSlots([videoKind], { video: 3, [accountQueue("jobs", "fal")]: 1 });
    const running = { fal: 0, other: 0, most: { fal: 0, other: 0 } };
    const gates: ReturnType<typeof deferred>[] = [];
    const started: ReturnType<typeof deferred>[] = [];
    const unit = (account: "fal" | "other") => {
      const gate = deferred();
      const start = deferred();
      gates.push(gate);
      started.push(start);
      const limit = queueSlot(slots, videoKind, account === "fal" ? "fal" : undefined);
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
    expect(queueSlot(slots, videoKind, "voice")).toBe(slots.video);
    expect(accountQueue("jobs", "fal")).toBe("jobs@fal");
  });

  it("names each account's places from the kinds' own `accountQueue`, never from a kind's name", () => {
    // Every built-in kind that sends to a provider account holds the same places of it.
    expect(accountQueuesOf(builtInStepKinds)).toEqual(["jobs"]);
    expect(
      builtInStepKinds.filter((kind) => kind.accountQueue !== undefined).map((kind) => kind.kind),
    ).toEqual(["video", "speech", "image"]);
    expect(accountSlotSizes(builtInStepKinds, { fal: 2, voice: 1 })).toEqual({
      "jobs@fal": 2,
      "jobs@voice": 1,
    });
    // A kind of its own names places of its own: the account's limit applies to them too.
    const render = defineStepKind({
      kind: "render",
      schema: {} as never,
      queue: "render",
      accountQueue: "renders",
      run: async () => ({}),
    });
    expect(accountSlotSizes([...builtInStepKinds, render], { fal: 2 })).toEqual({
      "jobs@fal": 2,
      "renders@fal": 2,
    });
    // A kind naming none (chat, ffmpeg) is held by the queue's limit only.
    expect(accountSlotSizes([render], {})).toEqual({});
  });

  it("holds an account's clips, images and voice within one limit (its max_concurrent_jobs)", async () => {
    const slots = runQueueSlots(builtInStepKinds, { accountLimits: { fal: 1 } });
    let running = 0;
    let most = 0;
    const gates = [deferred(), deferred(), deferred()];
    const started = [deferred(), deferred(), deferred()];
    const units = [videoKind, imageKind, speechKind].map((kind, at) =>
      queueSlot(
        slots,
        kind,
        "fal",
      )(async () => {
        running += 1;
        most = Math.max(most, running);
        started[at]?.resolve();
        await gates[at]?.promise;
        running -= 1;
      }),
    );
    // One at a time, in order: each starts only once the one before has ended.
    for (const [at, gate] of gates.entries()) {
      await started[at]?.promise;
      expect(running).toBe(1);
      gate.resolve();
    }
    await Promise.all(units);
    expect(most).toBe(1);
    // An account without a limit, and a unit served by no account, wait for nothing of it.
    expect(queueSlot(slots, imageKind, "voice")).toBe(queueSlot(slots, imageKind));
  });
});
