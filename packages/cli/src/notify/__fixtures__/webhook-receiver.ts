import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got: its headers and the exact body bytes. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** How the receiver answers its n-th request (from 0): a status, or never. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | "never";

/** A webhook receiver on loopback (port 0) that records every request it gets. */
export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Start a receiver that answers by `answer(index)`; "never" keeps the request open until
 * the client gives up or the receiver closes.
 *
 * @example
 * const receiver = await startWebhookReceiver((n) => ({ status: n < 2 ? 500 : 200 }));
 */
export async function startWebhookReceiver(
  answer: (index: number) => ReceiverAnswer = () => ({ status: 200 }),
): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const index = requests.length;
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      const reply = answer(index);
      if (reply === "never") {
        open.add(response);
        return;
      }
      response.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
      response.end(reply.status < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/reelsmith?token=abc`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
