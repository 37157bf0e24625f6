import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

/**
 * A WHATWG `fetch` (the global one, undici's, or a wrapper of the caller's): what
 * `createClient({ fetch })` takes, as openai-node and the AI SDK providers do.
 */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

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
    ? Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>)
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
