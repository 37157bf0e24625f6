import { describe, expect, it } from "vitest";
import { HttpError } from "../errors/http-error.js";
import { createAnswerStore, fingerprint } from "./answer-store.js";

const answer = (text: string) => ({ contentType: "text/plain", body: Buffer.from(text) });

describe("createAnswerStore", () => {
  it("makes an answer once per key, even for a repeat sent while the first is being made", async () => {
    const store = createAnswerStore();
    let made = 0;
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const make = async () => {
      made += 1;
      await gate;
      return answer(`answer ${made}`);
    };
    const print = fingerprint("images.generations", { prompt: "a fox" });
    const first = store.answer("key-1", print, make);
    const second = store.answer("key-1", print, make);
    finish();
    expect(await first).toEqual({ answer: answer("answer 1"), replayed: false });
    expect(await second).toEqual({ answer: answer("answer 1"), replayed: true });
    expect(made).toBe(1);
    expect((await store.answer(undefined, print, make)).replayed).toBe(false);
    expect(made).toBe(2);
  });

  it("refuses a key reused with another body, and forgets a failed answer", async () => {
    const store = createAnswerStore();
    await store.answer("key", fingerprint("r", 1), async () => answer("one"));
    await expect(
      store.answer("key", fingerprint("r", 2), async () => answer("two")),
    ).rejects.toMatchObject({
      status: 409,
    });
    await expect(
      store.answer("failing", "p", async () => {
        throw new HttpError(500, "render failed");
      }),
    ).rejects.toBeInstanceOf(HttpError);
    expect(await store.answer("failing", "p", async () => answer("again"))).toEqual({
      answer: answer("again"),
      replayed: false,
    });
  });
});
