import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../errors/http-error.js";
import { dropConnection } from "../util/drop-connection.js";
import { sleep } from "../util/sleep.js";
import { checkAuthorization, checkKeyHeader } from "./auth.js";
import type { RequestContext, SimulatorContext } from "./context.js";
import { parseJsonObject, readBody, sendError, sendJson } from "./http-io.js";
import { matchRoute } from "./match-route.js";

const faultStatus = { "429": 429, "500": 500, "503": 503 } as const;

/**
 * Handle one HTTP request: request id, route, auth, injected faults, handler, stats.
 *
 * @example
 * http.createServer((request, response) => void handleRequest(request, response, simulator));
 */
export async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  simulator: SimulatorContext,
): Promise<void> {
  const requestId = `req_${randomBytes(12).toString("hex")}`;
  response.setHeader("x-request-id", requestId);
  const url = new URL(request.url ?? "/", "http://simulator.invalid");
  const match = matchRoute(request.method ?? "GET", url.pathname, simulator.routes);
  const routeKey = match.route ? `${request.method} ${match.route.pattern}` : "unknown";
  // One controller per request, aborted when the client goes away or the simulator closes
  // (tracked in a set rather than AbortSignal.any, which piles listeners on the closing signal).
  const aborted = new AbortController();
  if (simulator.closing.aborted) aborted.abort();
  simulator.activeRequests.add(aborted);
  response.on("close", () => {
    simulator.activeRequests.delete(aborted);
    simulator.stats.request(routeKey, response.writableFinished ? response.statusCode : "dropped");
    if (!response.writableFinished) aborted.abort();
  });
  const signal = aborted.signal;

  const context: RequestContext = {
    request,
    response,
    params: match.params,
    requestId,
    signal,
    fault: undefined,
    async readJson() {
      const bytes = await readBody(request, simulator.maxBodyBytes);
      return parseJsonObject(bytes, request.headers["content-type"]);
    },
    async beforeRespond() {
      const fault = context.fault;
      context.fault = undefined;
      if (fault?.kind === "drop") {
        await dropConnection(request.socket);
        return false;
      }
      if (fault?.kind === "stall") {
        if (!(await sleep(fault.value ?? Number.POSITIVE_INFINITY, signal))) return false;
      }
      return !signal.aborted;
    },
    async send(status, body, headers) {
      if (await context.beforeRespond()) sendJson(response, status, body, headers);
    },
  };

  try {
    if (!match.route?.public) {
      const { authorize, authHeader, authScheme } = simulator.videoDialect;
      if (authorize) authorize(request.headers.authorization, simulator.apiKey);
      else if (authHeader)
        checkKeyHeader(request.headers[authHeader], simulator.apiKey, authHeader);
      else checkAuthorization(request.headers.authorization, simulator.apiKey, authScheme);
    }
    if (!match.route) {
      throw new HttpError(404, `Unknown route: ${request.method} ${url.pathname}`, {
        code: "unknown_url",
      });
    }
    if (!match.handler) {
      throw new HttpError(405, `Method ${request.method} is not allowed on ${url.pathname}`, {
        code: "method_not_allowed",
        headers: { allow: match.allowed.join(", ") },
      });
    }
    const faultRoute =
      match.route.faultRouteByMethod?.[request.method ?? ""] ?? match.route.faultRoute;
    const fault = faultRoute ? simulator.faults.forRequest(faultRoute) : undefined;
    if (fault) {
      simulator.stats.fault(fault.kind);
      simulator.logger?.debug?.("simulator: injecting fault", {
        requestId,
        route: routeKey,
        fault: fault.kind,
      });
    }
    if (fault && (fault.kind === "429" || fault.kind === "500" || fault.kind === "503")) {
      request.resume();
      throw faultError(fault.kind, fault.value);
    }
    if (fault?.kind === "slow" && !(await sleep(fault.value ?? 1000, signal))) return;
    if (fault?.kind === "drop" || fault?.kind === "stall") context.fault = fault;
    await match.handler(context, simulator);
  } catch (error) {
    if (signal.aborted && !response.headersSent) {
      response.destroy();
      return;
    }
    const httpError = HttpError.isInstance(error)
      ? error
      : internalError(error, simulator, requestId);
    if (httpError.status === 413) response.setHeader("connection", "close");
    sendError(response, httpError, simulator.videoDialect.errorResponse);
  }
}

function faultError(kind: "429" | "500" | "503", value: number | undefined): HttpError {
  if (kind === "429") {
    const seconds = value ?? 1;
    return new HttpError(
      429,
      "Rate limit reached (injected by the simulator). Please retry after a short wait.",
      {
        type: "requests",
        code: "rate_limit_exceeded",
        headers: {
          "retry-after": String(Math.ceil(seconds)),
          "retry-after-ms": String(Math.round(seconds * 1000)),
        },
      },
    );
  }
  if (kind === "503") {
    return new HttpError(
      503,
      "The service is temporarily overloaded (injected by the simulator).",
      {
        code: "service_unavailable",
      },
    );
  }
  return new HttpError(
    faultStatus[kind],
    "The server had an error while processing your request (injected by the simulator).",
    {
      code: "internal_error",
    },
  );
}

function internalError(error: unknown, simulator: SimulatorContext, requestId: string): HttpError {
  simulator.logger?.error?.("simulator: handler failed", { requestId, error: String(error) });
  return new HttpError(500, "The simulator had an internal error while processing your request.", {
    code: "internal_error",
  });
}
