import { RunnerError } from "../../errors/runner-error.js";

/**
 * A paid request of a unit (a narration, its word timings) was sent and its answer was lost
 * (the process was killed, the connection dropped), and the service does not honour
 * Idempotency-Key as configured: sending it again might pay twice, so it is not sent. The
 * message says what may have been made, where to look, and how to go on.
 * @example throw new UnsettledRequestError({ step: "narration", index: 2, request: "POST /v1/audio/speech", idempotencyKey, file: "audio/narration-2.wav" });
 */
export class UnsettledRequestError extends RunnerError {
  readonly step: string;
  readonly index: number | undefined;
  readonly idempotencyKey: string;
  readonly request: string;
  constructor(details: {
    step: string;
    index: number | undefined;
    request: string;
    idempotencyKey: string;
    sinceMs?: number;
    file?: string;
    /** The provider takes no idempotency key at all (a resume can never settle it). */
    keyless?: boolean;
  }) {
    const where =
      details.index === undefined
        ? `step "${details.step}"`
        : `step "${details.step}" item ${details.index}`;
    const when =
      details.sinceMs !== undefined ? ` at ${new Date(details.sinceMs).toISOString()}` : "";
    super(
      "request_unsettled",
      details.keyless
        ? `The ${details.request} request of ${where} was sent${when} and its answer was lost, so it may have been paid. The provider takes no idempotency key, so it was not sent again, to avoid paying twice. Look in the account's history or usage page for that request${details.file ? ` (its audio would have gone to ${details.file})` : ""}; then decide whether to pay it again (\`reelsmith retake\` the item makes a new request).`
        : `The ${details.request} request of ${where} was sent${when} (Idempotency-Key ${details.idempotencyKey}) and its answer was lost, so it may have been paid. The service does not honour Idempotency-Key as configured (set \`service.idempotency_keys: true\` in the provider profile if it does), so it was not sent again, to avoid paying twice. Look in the service's usage or billing page for that request${details.file ? ` (its audio would have gone to ${details.file})` : ""}; then \`reelsmith resume\` the run: with idempotency keys honoured it is settled without a second charge; otherwise decide whether to pay it again (\`reelsmith retake\` the item makes a new request).`,
    );
    this.step = details.step;
    this.index = details.index;
    this.idempotencyKey = details.idempotencyKey;
    this.request = details.request;
  }
}
