import { createHash } from "node:crypto";
import { HttpError } from "../errors/http-error.js";

/** A whole answer of a synchronous endpoint, kept to replay it for a repeated Idempotency-Key. */
export interface StoredAnswer {
  contentType: string;
  body: Buffer;
  headers?: Record<string, string>;
}

/**
 * The fingerprint of a request: its route and fields (files by their sha256), so a key reused
 * with another body is told apart.
 *
 * @example
 * fingerprint("images.generations", { prompt: "a fox", n: 2 });
 */
export function fingerprint(route: string, fields: unknown): string {
  return createHash("sha256").update(route).update(JSON.stringify(fields)).digest("hex");
}

/**
 * Answers of the synchronous endpoints (images, speech, transcriptions) by Idempotency-Key:
 * the first request with a key makes (and charges) its answer; a repeat, even while the first
 * is still being made, gets the same bytes and is not charged again; a key reused with another
 * body is a 409. A failed answer is forgotten, so a retry makes it anew.
 *
 * @example
 * const { answer, replayed } = await answers.answer(key, fingerprint(route, fields), make);
 */
export function createAnswerStore() {
  const answers = new Map<string, { fingerprint: string; answer: Promise<StoredAnswer> }>();
  return {
    async answer(
      key: string | undefined,
      print: string,
      make: () => Promise<StoredAnswer>,
    ): Promise<{ answer: StoredAnswer; replayed: boolean }> {
      if (key === undefined) return { answer: await make(), replayed: false };
      const previous = answers.get(key);
      if (previous) {
        if (previous.fingerprint !== print) {
          throw new HttpError(
            409,
            "This Idempotency-Key was already used with a different request body.",
            { param: "Idempotency-Key", code: "idempotency_key_reused" },
          );
        }
        return { answer: await previous.answer, replayed: true };
      }
      const answer = make();
      answers.set(key, { fingerprint: print, answer });
      try {
        return { answer: await answer, replayed: false };
      } catch (error) {
        answers.delete(key);
        throw error;
      }
    },
  };
}

/** The store made by {@link createAnswerStore}. */
export type AnswerStore = ReturnType<typeof createAnswerStore>;
