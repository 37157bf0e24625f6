import { setTimeout as sleep } from "node:timers/promises";
import { APIError } from "../../errors/api-error.js";
import type { RequestOptions } from "../../http/request-options.js";
import type { Transport } from "../../http/transport.js";
import type { FalQueuedRequest, FalQueueStatus } from "./fal-api-types.js";
import { falApp } from "./fal-endpoint.js";

/**
 * One request through fal's queue, from submit to result: `POST /{endpoint}` once (journaled
 * as a submission with the caller's key), `…/requests/{id}/status` every poll interval until
 * `COMPLETED` (a runner error is an `APIError`), then the result at `…/requests/{id}`.
 *
 * @example
 * const { result, requestId } = await falQueueCall<FalImageResult>(transport, {
 *   endpoint: "fal-ai/flux/dev", input: { prompt: "a fox" }, idempotencyKey, request: {},
 * });
 */
export async function falQueueCall<Result>(
  transport: Transport,
  call: {
    endpoint: string;
    input: Record<string, unknown>;
    idempotencyKey: string;
    request: RequestOptions;
  },
): Promise<{ result: Result | undefined; requestId: string }> {
  const { endpoint, request } = call;
  const queued = await transport.json<FalQueuedRequest>({
    method: "POST",
    path: `/${endpoint}`,
    body: call.input,
    options: request,
    submission: { idempotencyKey: call.idempotencyKey, request: "POST /{endpoint}" },
  });
  const requestId = queued.data?.request_id;
  if (typeof requestId !== "string")
    throw new TypeError(`fal answered ${endpoint} without a request_id`);
  const base = `/${falApp(endpoint)}/requests/${encodeURIComponent(requestId)}`;
  for (;;) {
    const status = await transport.json<FalQueueStatus>({
      method: "GET",
      path: `${base}/status`,
      options: request,
    });
    if (status.data?.status === "COMPLETED") {
      if (status.data.error)
        throw new APIError(`fal's ${endpoint} failed: ${status.data.error}`, {
          status: 422,
          code: status.data.error_type ?? "runner_error",
          requestId,
        });
      break;
    }
    await sleep(transport.config.pollIntervalMs, undefined, { signal: request.signal });
  }
  const result = await transport.json<Result>({ method: "GET", path: base, options: request });
  return { result: result.data, requestId };
}
