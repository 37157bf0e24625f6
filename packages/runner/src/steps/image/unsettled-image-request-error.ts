import { RunnerError } from "../../errors/runner-error.js";

/**
 * An image request was sent (its intent is journaled) but its answer was lost (the process
 * was killed, or the connection dropped), and the service does not honour `Idempotency-Key`
 * as configured: sending it again could pay twice, so the item fails saying how to reconcile.
 * @example throw new UnsettledImageRequestError("keyframes", 2, "reelsmith-run-keyframes-2-1");
 */
export class UnsettledImageRequestError extends RunnerError {
  readonly step: string;
  readonly index: number | undefined;
  readonly idempotencyKey: string;
  constructor(step: string, index: number | undefined, idempotencyKey: string, cause?: unknown) {
    const where = index === undefined ? `step "${step}"` : `step "${step}" item ${index}`;
    super(
      "image_request_unsettled",
      `The image request of ${where} was sent (Idempotency-Key ${idempotencyKey}) but its answer was lost, and the service is not known to honour Idempotency-Key (set \`idempotency_keys: true\` in the provider profile if it does): it may have made (and charged) the images. Nothing was sent again, to avoid paying twice. Look in the service's usage for a request with this key at that time; then \`reelsmith resume\` (with --resubmit-lost to send it again and accept a second charge if there was none).`,
      { cause },
    );
    this.step = step;
    this.index = index;
    this.idempotencyKey = idempotencyKey;
  }
}
