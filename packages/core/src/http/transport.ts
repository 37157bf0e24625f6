import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { type Dispatcher, getGlobalDispatcher } from "undici";
import { APIError } from "../errors/api-error.js";
import { APIUserAbortError } from "../errors/api-user-abort-error.js";
import { MissingConfigurationError } from "../errors/missing-configuration-error.js";
import { ReelsmithError } from "../errors/reelsmith-error.js";
import { AttemptAbort } from "./attempt-abort.js";
import { errorFromResponse } from "./error-from-response.js";
import { type FetchedResponse, type FetchFunction, requestWithFetch } from "./fetch-request.js";
import { networkError } from "./network-error.js";
import type { ProviderAccess } from "./provider-access.js";
import { createRedactor } from "./redact.js";
import type { RequestOptions } from "./request-options.js";
import { backoffDelay, retryAfterDelay } from "./retry-policy.js";
import { sleep } from "./sleep.js";
import type { TransportConfig } from "./transport-config.js";

/** One logical call; the transport repeats it as the retry policy allows. */
export interface TransportRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** A path such as `/v1/models` (appended to the base URL) or an absolute URL. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with its content type (a multipart body); takes the place of `body`. */
  rawBody?: { bytes: Uint8Array; contentType: string };
  options?: RequestOptions | undefined;
  /**
   * Set for paid requests (`POST /v1/videos`, images, speech, transcriptions): retried only when
   * the request cannot have reached the service. `request` names a request other than a video
   * submission in the error's message.
   */
  submission?: { idempotencyKey: string; request?: string };
  /** `stream`: the body is handed over after the headers (SSE, downloads). */
  accept?: string;
}

/** A successful response whose body is still to be read. */
export interface StreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  requestId: string | undefined;
  body: Readable;
  /** Aborts the body (and signals `APIUserAbortError` to its reader). */
  abort(): void;
  /** True once the caller's signal fired (tells a user abort from other failures). */
  userAborted(): boolean;
  /** Removes the listeners; call when the body is done. */
  release(): void;
}

/** A successful JSON response. */
export interface JSONResponse<T> {
  data: T;
  status: number;
  headers: IncomingHttpHeaders;
  requestId: string | undefined;
}

const maxRedirects = 5;
const userAgent = "reelsmith-core/0.1.0";

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Sends requests: auth to the base origin only, timeouts per attempt, retries with back-off.
 * `config` is the client's, as its namespaces read it too.
 */
export class Transport<Config extends TransportConfig = TransportConfig> {
  readonly redact: (text: string) => string;
  readonly #apiKey: string | undefined;
  /** The provider of the service (its auth form and idempotency header). */
  readonly #provider: ProviderAccess;

  constructor(
    readonly config: Config,
    provider: ProviderAccess,
    apiKey: string | undefined,
    readonly dispatcher: Dispatcher | undefined,
    /** A caller's fetch, used instead of undici's `request()` (the fast path, by default). */
    readonly fetch?: FetchFunction,
  ) {
    this.#provider = provider;
    this.#apiKey = apiKey;
    this.redact = createRedactor(apiKey);
  }

  /** The normalised base URL, or MissingConfigurationError. */
  baseURL(): string {
    if (this.config.baseURL === undefined) {
      throw new MissingConfigurationError(
        "baseURL",
        "No base URL: pass `baseURL` to createClient() or set REELSMITH_BASE_URL (or OPENAI_BASE_URL).",
      );
    }
    return this.config.baseURL;
  }

  #resolveURL(path: string): URL {
    if (/^https?:\/\//i.test(path)) return new URL(path);
    return new URL(`${this.baseURL()}${path.startsWith("/") ? "" : "/"}${path}`);
  }

  #headers(url: URL, request: TransportRequest, hasBody: boolean): Record<string, string> {
    const base = new URL(this.baseURL());
    const headers: Record<string, string> = {
      accept: request.accept ?? "application/json",
      "user-agent": userAgent,
    };
    if (hasBody) headers["content-type"] = request.rawBody?.contentType ?? "application/json";
    // Lower-cased, so that the credential rules below see every spelling.
    for (const extra of [this.config.defaultHeaders, request.options?.headers ?? {}]) {
      for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
    }
    // Set after the caller's headers: the key must be the one AmbiguousSubmissionError reports.
    const keyHeader = this.#provider.idempotencyHeader;
    if (request.submission && keyHeader) headers[keyHeader] = request.submission.idempotencyKey;
    // Credentials go to the service's own origin only, never to a CDN or a redirect target.
    if (url.origin === base.origin) {
      if (this.#apiKey === undefined) {
        throw new MissingConfigurationError(
          "apiKey",
          "No API key: pass `apiKey` to createClient() or set REELSMITH_API_KEY (or OPENAI_API_KEY).",
        );
      }
      Object.assign(headers, this.#provider.authHeaders(this.#apiKey));
    } else {
      delete headers.authorization;
    }
    return headers;
  }

  /**
   * Whether a paid request that got an answer may be sent again: always where the provider
   * honours an idempotency key (the key answers with what the first made); else only after a
   * 429 (refused before anything was made): a 5xx may come after the work was queued.
   */
  #mayResend(request: TransportRequest, status: number | undefined): boolean {
    if (!request.submission || this.#provider.idempotencyHeader !== undefined) return true;
    return status === 429;
  }

  /** Sends the request and parses a JSON body. */
  async json<T>(request: TransportRequest): Promise<JSONResponse<T>> {
    const response = await this.#send(request, "json");
    return response as JSONResponse<T>;
  }

  /** Sends the request and returns the open body after a 2xx status. */
  async stream(request: TransportRequest): Promise<StreamResponse> {
    return (await this.#send(request, "stream")) as StreamResponse;
  }

  async #send(
    request: TransportRequest,
    mode: "json" | "stream",
  ): Promise<JSONResponse<unknown> | StreamResponse> {
    const options = request.options ?? {};
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const logger = this.config.logger;
    for (let attempt = 0; ; attempt++) {
      let delay: number;
      let failure: ReelsmithError;
      try {
        const outcome = await this.#attempt(request, mode, attempt);
        if (outcome.kind === "ok") return outcome.response;
        failure = outcome.error;
        delay =
          retryAfterDelay(outcome.headers, this.config.maxRetryDelayMs) ??
          backoffDelay(attempt, this.config.retryBaseDelayMs, this.config.retryMaxBackoffMs);
        if (!outcome.retryable || attempt >= maxRetries) throw failure;
        if (!this.#mayResend(request, outcome.error.status)) throw failure;
      } catch (error) {
        if (!ReelsmithError.isInstance(error)) throw error;
        failure = error;
        if (APIUserAbortError.isInstance(error) || APIError.isInstance(error)) throw error;
        if (!failure.isRetryable || attempt >= maxRetries) throw failure;
        delay = backoffDelay(attempt, this.config.retryBaseDelayMs, this.config.retryMaxBackoffMs);
      }
      logger.warn?.("retrying request", {
        method: request.method,
        path: request.path,
        attempt: attempt + 1,
        maxRetries,
        delayMs: delay,
        error: failure.message,
        code: failure.code,
        ...(APIError.isInstance(failure)
          ? { status: failure.status, requestId: failure.requestId }
          : {}),
      });
      await sleep(delay, options.signal);
    }
  }

  /** The host's last word before the request leaves (its wait is not part of the timeout). */
  async #beforeRequest(request: TransportRequest, userSignal: AbortSignal | undefined) {
    if (userSignal?.aborted) throw new APIUserAbortError(undefined, { cause: userSignal.reason });
    if (!this.config.beforeRequest) return;
    await this.config.beforeRequest({
      method: request.method,
      path: request.path,
      ...(request.submission ? { idempotencyKey: request.submission.idempotencyKey } : {}),
    });
    if (userSignal?.aborted) throw new APIUserAbortError(undefined, { cause: userSignal.reason });
  }

  /** Sends one request with the user's fetch, else undici (timeouts are the attempt's own). */
  #dispatch(
    url: URL,
    init: {
      method: string;
      headers: Record<string, string>;
      body: string | Uint8Array | undefined;
      cancel: AttemptAbort;
    },
  ): Promise<Dispatcher.ResponseData | FetchedResponse> {
    const { method, headers, body, cancel } = init;
    if (this.fetch) {
      return requestWithFetch(this.fetch, url, { method, headers, body, signal: cancel.signal });
    }
    // The dispatcher's own `request`, not undici's top-level one: that one copies these
    // options into an object literal that starts with a spread, and Node 20's V8 gives each
    // such object a hidden class of its own, made in the old generation: about 2 KB a request
    // that only a full collection frees. The options are spelled out for the same reason.
    return (this.dispatcher ?? getGlobalDispatcher()).request({
      origin: url.origin,
      path: url.search ? `${url.pathname}${url.search}` : url.pathname,
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      signal: cancel,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  /** A non-2xx answer as the provider's error, retryable as `x-should-retry` or the error says. */
  #statusFailure(
    headers: IncomingHttpHeaders,
    status: number,
    text: string,
    requestId: string | undefined,
  ): { kind: "status"; error: APIError; retryable: boolean; headers: IncomingHttpHeaders } {
    const apiError =
      this.#provider.errorFromResponse?.(status, text, requestId, this.redact) ??
      errorFromResponse(status, text, requestId, this.redact);
    const shouldRetry = header(headers, "x-should-retry");
    const retryable =
      shouldRetry === "true" ? true : shouldRetry === "false" ? false : apiError.isRetryable;
    return { kind: "status", error: apiError, retryable, headers };
  }

  async #attempt(
    request: TransportRequest,
    mode: "json" | "stream",
    attempt: number,
  ): Promise<
    | { kind: "ok"; response: JSONResponse<unknown> | StreamResponse }
    | { kind: "status"; error: APIError; retryable: boolean; headers: IncomingHttpHeaders }
  > {
    const options = request.options ?? {};
    const userSignal = options.signal;
    await this.#beforeRequest(request, userSignal);
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    const controller = new AttemptAbort();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error("attempt timed out"));
    }, timeoutMs);
    const onUserAbort = () => controller.abort(userSignal?.reason);
    userSignal?.addEventListener("abort", onUserAbort, { once: true });
    let handedOver = false;
    const release = () => {
      clearTimeout(timer);
      userSignal?.removeEventListener("abort", onUserAbort);
    };
    const mapError = (error: unknown, phase: "connect" | "body"): ReelsmithError =>
      networkError({
        error,
        phase,
        userAborted: userSignal?.aborted === true,
        userReason: userSignal?.reason,
        timedOut,
        timeoutMs,
        idempotencyKey: request.submission?.idempotencyKey,
        request: request.submission?.request,
        redact: this.redact,
      });
    try {
      let url = this.#resolveURL(request.path);
      let method = request.method;
      let body: string | Uint8Array | undefined = request.rawBody
        ? request.rawBody.bytes
        : request.body === undefined
          ? undefined
          : JSON.stringify(request.body);
      for (let redirects = 0; ; redirects++) {
        const headers = this.#headers(url, request, body !== undefined);
        this.config.logger.debug?.("request", { method, url: url.origin + url.pathname, attempt });
        let response: Dispatcher.ResponseData | FetchedResponse;
        try {
          response = await this.#dispatch(url, {
            method,
            headers,
            body,
            cancel: controller,
          });
        } catch (error) {
          throw mapError(error, "connect");
        }
        const status = response.statusCode;
        const requestId = header(response.headers, "x-request-id");
        this.config.logger.debug?.("response", { method, path: url.pathname, status, requestId });
        const location = header(response.headers, "location");
        if (status >= 300 && status < 400 && location && redirects < maxRedirects) {
          response.body.resume();
          url = new URL(location, url);
          if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
            method = "GET";
            body = undefined;
          }
          continue;
        }
        if (status < 200 || status >= 300) {
          const text = await bodyText(response, mapError);
          return this.#statusFailure(response.headers, status, text, requestId);
        }
        if (mode === "stream") {
          handedOver = true;
          clearTimeout(timer);
          const responseBody = response.body;
          return {
            kind: "ok",
            response: {
              status,
              headers: response.headers,
              requestId,
              body: responseBody,
              abort: () => controller.abort(new Error("aborted by the caller")),
              userAborted: () => userSignal?.aborted === true,
              release,
            },
          };
        }
        const data = parseJSONBody(await bodyText(response, mapError), status, requestId);
        return { kind: "ok", response: { data, status, headers: response.headers, requestId } };
      }
    } finally {
      if (!handedOver) release();
    }
  }
}

/** A response's whole body as text; a failure while reading is mapped as a body error. */
async function bodyText(
  response: Dispatcher.ResponseData | FetchedResponse,
  mapError: (error: unknown, phase: "connect" | "body") => ReelsmithError,
): Promise<string> {
  try {
    return await response.body.text();
  } catch (error) {
    throw mapError(error, "body");
  }
}

/** A 2xx body parsed as JSON (empty is undefined); an `invalid_response` APIError when it is not. */
function parseJSONBody(text: string, status: number, requestId: string | undefined): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    throw new APIError(`${status} The service returned a body that is not JSON.`, {
      status,
      requestId,
      code: "invalid_response",
    });
  }
}
