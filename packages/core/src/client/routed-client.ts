import type { ReelsmithClient } from "./create-client.js";

/** What {@link routeClients} routes: a default client and the clients of other accounts. */
export interface RouteClientsOptions {
  /** The client of every model no route names (the profile's `service`). */
  fallback: ReelsmithClient;
  /** The client of each routed model, by model id. */
  byModel: ReadonlyMap<string, ReelsmithClient>;
}

/**
 * One client over several provider accounts: it is `fallback` (its base URL, models list and
 * namespaces), and {@link clientForModel} gives the client of a routed model. Each account's
 * client keeps its own dialect, key, retries and idempotency.
 *
 * @example
 * ```ts
 * const client = routeClients({ fallback, byModel: new Map([["fal-ai/kling", fal]]) });
 * clientForModel(client, "fal-ai/kling") === fal; // true
 * ```
 */
export function routeClients(options: RouteClientsOptions): ReelsmithClient {
  const { fallback, byModel } = options;
  return Object.freeze({
    ...fallback,
    forModel: (model: string) => byModel.get(model) ?? fallback,
  });
}

/**
 * The client that serves `model`: the routed account's for a client made by
 * {@link routeClients}, else `client` itself.
 *
 * @example
 * ```ts
 * const video = clientForModel(context.client, params.model);
 * await video.videos.create(params);
 * ```
 */
export function clientForModel(
  client: ReelsmithClient,
  model: string | undefined,
): ReelsmithClient {
  return model === undefined ? client : (client.forModel?.(model) ?? client);
}
