import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

/** What the client passes to a caller's `fetch`: always these fields, `body` when it has one. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  redirect: "manual";
  body?: string | Uint8Array;
}

/**
 * What the client reads of a `fetch` answer. Typed by what is read, not as the global
 * `Response`, so undici's `fetch` (whose `Response` type differs from the global one's) fits
 * without a cast.
 */
export interface FetchResponse {
  status: number;
  headers: { forEach(callback: (value: string, name: string) => void): void };
  /** A WHATWG `ReadableStream` of bytes, or null for an empty body. */
  body: unknown;
}

/**
 * A WHATWG `fetch` (the global one, undici's, or a wrapper of the caller's): what
 * `createClient({ fetch })` takes, as openai-node and the AI SDK providers do.
 *
 * @example
 * createClient({ fetch: (input, init) => undiciFetch(input, { ...init, dispatcher: agent }) });
 */
export type FetchFunction = (input: URL, init: FetchInit) => Promise<FetchResponse>;

/** A response in the shape the transport reads from undici's `request()`. */
export interface FetchedResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Readable & { text(): Promise<string> };
}

/**
 * Send one request with a caller's `fetch` and adapt the answer to what the transport reads
 * from undici's `request()`: the status, lower-cased headers, and the body as a Node stream
 * with `text()`. Redirects are `manual`, so the transport still decides where credentials go.
 *
 * @example
 * const response = await requestWithFetch(fetch, url, { method: "GET", headers, signal });
 */
export async function requestWithFetch(
  fetchFunction: FetchFunction,
  url: URL,
  init: {
    method: string;
    headers: Record<string, string>;
    body: string | Uint8Array | undefined;
    signal: AbortSignal;
  },
): Promise<FetchedResponse> {
  const response = await fetchFunction(url, {
    method: init.method,
    headers: init.headers,
    signal: init.signal,
    redirect: "manual",
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const headers: IncomingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const stream = response.body
    ? Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>)
    : Readable.from([]);
  const body = Object.assign(stream, {
    async text(): Promise<string> {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks).toString("utf8");
    },
  });
  return { statusCode: response.status, headers, body };
}
