import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A service in front of another that ignores `Idempotency-Key`: every POST makes a new job. */
export interface ForgetfulService {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a proxy on loopback (port 0) that forwards every request to `target` without its
 * `Idempotency-Key` header, as a service that does not honour the header behaves: a repeated
 * submission is a second paid job, which the target's own stats then count.
 * @example const service = await startForgetfulService(simulator.url); … await service.close();
 */
export async function startForgetfulService(target: string): Promise<ForgetfulService> {
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const headers: Record<string, string | string[] | undefined> = {
      ...incoming.headers,
      host: upstream.host,
    };
    delete headers["idempotency-key"];
    const forwarded = httpRequest(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = new URL(target);
  base.host = `127.0.0.1:${port}`;
  return {
    url: base.toString().replace(/\/$/, ""),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
