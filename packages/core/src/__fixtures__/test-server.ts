import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the test server saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** The body's bytes (a multipart body is not UTF-8 text). */
  bytes: Buffer;
}

export type TestHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  recorded: RecordedRequest,
  index: number,
) => void | Promise<void>;

/** A real node:http server on 127.0.0.1, port 0, recording every request. */
export interface TestServer {
  url: string;
  port: number;
  server: Server;
  requests: RecordedRequest[];
  /** Resolves once the server has received `count` requests (await it before counting). */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a loopback server; the handler gets each request with its body already read. */
export async function startTestServer(handler: TestHandler, port = 0): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const waiting = new Set<{ count: number; resolve: () => void }>();
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      bytes: Buffer.concat(chunks),
    };
    requests.push(recorded);
    for (const waiter of waiting) {
      if (requests.length >= waiter.count) {
        waiting.delete(waiter);
        waiter.resolve();
      }
    }
    try {
      await handler(request, response, recorded, requests.length - 1);
    } catch (error) {
      if (!response.headersSent) response.writeHead(599);
      response.end(String(error));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    server,
    requests,
    waitForRequests: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.add({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON response. */
export function sendJSON(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** A port on which nothing listens (bound, then closed). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Waits a few milliseconds (to let a write reach the client as its own chunk). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A chat completion body as the service returns it. */
export function completionBody(content: string | null, extra: Record<string, unknown> = {}) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "reel-chat-1",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    ...extra,
  };
}

export const testKey = "sk-test-SECRET-4f1c2b9e";
