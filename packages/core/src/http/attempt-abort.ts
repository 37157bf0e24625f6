import { EventEmitter } from "node:events";

/**
 * What cancels one attempt: its timeout, or the caller's signal. It is the signal undici's
 * dispatcher takes (an EventEmitter with `aborted` and `reason`, as undici documents), not an
 * AbortController's: Node 20 makes each AbortSignal with its prototype set after the object,
 * which gives every one a hidden class of its own in the old generation, freed only by a full
 * collection. A user's `fetch`, which takes only an AbortSignal, gets one made on first use.
 * @example const attempt = new AttemptAbort(); setTimeout(() => attempt.abort(new Error("timed out")), 1000);
 */
export class AttemptAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  #controller: AbortController | undefined;

  /** An AbortSignal that aborts with this, for a `fetch`. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.#controller?.abort(reason);
    this.emit("abort");
  }
}
