import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../errors/http-error.js";

/** Largest request body accepted by default (16 MiB): enough for a few data-URI images. */
export const defaultMaxBodyBytes = 16 * 1024 * 1024;

/**
 * Read the whole request body, refusing more than `limit` bytes with a 413 (checked against
 * Content-Length first, then while reading).
 *
 * @example
 * const bytes = await readBody(request, defaultMaxBodyBytes);
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // Keep the connection usable for the 413: stop collecting, let the rest drain away.
      request.off("data", onData);
      request.resume();
      reject(tooLarge(limit));
    };
    request.on("data", onData);
    request.once("end", () => resolve(Buffer.concat(chunks, size)));
    request.once("error", reject);
    request.once("close", () => reject(new Error("request closed before its body was read")));
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body is larger than the limit of ${limit} bytes`, {
    code: "request_too_large",
  });
}

/**
 * Parse a JSON request body that must be an object; a 400 otherwise.
 *
 * @example
 * const body = parseJsonObject(await readBody(request, limit), request.headers["content-type"]);
 */
export function parseJsonObject(
  bytes: Buffer,
  contentType: string | undefined,
): Record<string, unknown> {
  if (contentType !== undefined && !/^application\/(?:[\w.+-]*\+)?json\b/i.test(contentType)) {
    throw new HttpError(400, `Expected Content-Type application/json; got ${contentType}`, {
      code: "invalid_content_type",
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new HttpError(
      400,
      "We could not parse the JSON body of your request: it is not valid JSON.",
      {
        code: "invalid_json",
      },
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "The request body must be a JSON object.", { code: "invalid_json" });
  }
  return value as Record<string, unknown>;
}

/** Send a JSON response with Content-Length. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** Send an {@link HttpError} as its OpenAI-style body, or as the dialect's `answer` says. */
export function sendError(
  response: ServerResponse,
  error: HttpError,
  answer?: (error: HttpError) => { status: number; body: unknown },
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const { status, body } = answer ? answer(error) : { status: error.status, body: error.toBody() };
  sendJson(response, status, body, error.headers);
}

/**
 * Write to a response, waiting for `drain` when the socket buffer is full. Resolves false when
 * the response closed first.
 */
export async function writeWithBackpressure(
  response: ServerResponse,
  data: string | Buffer,
): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return false;
  if (response.write(data)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      response.off("drain", onDrain);
      response.off("close", onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    response.on("drain", onDrain);
    response.on("close", onClose);
  });
}
