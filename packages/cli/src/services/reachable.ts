import { connect } from "node:net";

/**
 * True when something accepts TCP connections at the URL's host and port within `timeoutMs`.
 *
 * @example
 * if (!(await isReachable("http://127.0.0.1:8080"))) startSimulator();
 */
export async function isReachable(url: string, timeoutMs = 1000): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const port = Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80));
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

/**
 * True for URLs on the local machine (127.0.0.0/8, ::1, localhost).
 *
 * @example
 * isLoopback("http://127.0.0.1:4000"); // true
 */
export function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\./.test(host);
  } catch {
    return false;
  }
}
