import { InvalidRequestError } from "../../errors/invalid-request-error.js";

/** Namespaces whose endpoint ids have one more leading segment (`workflows/owner/alias`). */
const namespaces = new Set(["workflows", "comfy"]);

const segment = /^[A-Za-z0-9][\w.-]*$/;

/**
 * Checks a fal endpoint id (the model id users type, `fal-ai/kling-video/v2.1/standard/text-to-video`)
 * and returns the app part its queue requests live under (`fal-ai/kling-video`): status,
 * result and cancel use the owner and alias only, as fal's own client does.
 *
 * @example
 * ```ts
 * falApp("fal-ai/kling-video/v2.1/standard/text-to-video"); // "fal-ai/kling-video"
 * ```
 */
export function falApp(endpoint: string): string {
  const parts = endpoint.split("/");
  const head = namespaces.has(parts[0] ?? "") ? 3 : 2;
  if (parts.length < head || !parts.every((part) => segment.test(part))) {
    throw new InvalidRequestError(
      "model",
      `\`model: ${JSON.stringify(endpoint)}\` is not a fal endpoint id: write it as fal shows it, owner/alias[/path], e.g. fal-ai/kling-video/v2.1/standard/text-to-video`,
    );
  }
  return parts.slice(0, head).join("/");
}

/**
 * A fal job id as core keeps it: the endpoint and the queue's request id, so the job can be
 * found from its id alone (`fal-ai/kling-video/v2.1/standard/text-to-video/requests/<id>`).
 *
 * @example
 * ```ts
 * parseFalJobId("fal-ai/flux/dev/requests/abc"); // { endpoint: "fal-ai/flux/dev", requestId: "abc", app: "fal-ai/flux" }
 * ```
 */
export function parseFalJobId(id: string): { endpoint: string; requestId: string; app: string } {
  const at = id.lastIndexOf("/requests/");
  const endpoint = at > 0 ? id.slice(0, at) : "";
  const requestId = at > 0 ? id.slice(at + "/requests/".length) : "";
  if (endpoint === "" || requestId === "" || requestId.includes("/")) {
    throw new TypeError(
      `Expected a fal job id of the form <endpoint>/requests/<request id>, got ${JSON.stringify(id)}`,
    );
  }
  return { endpoint, requestId, app: falApp(endpoint) };
}

/** The job id of a queued request. */
export function falJobId(endpoint: string, requestId: string): string {
  return `${endpoint}/requests/${requestId}`;
}
