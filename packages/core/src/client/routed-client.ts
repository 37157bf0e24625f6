import type { ReelsmithClient } from "./create-client.js";

/** What {@link routeClients} routes: a default client and the clients of other accounts. */
export interface RouteClientsOptions {
  /** The client of every model no route names (the profile's `service`). */
  fallback: ReelsmithClient;
  /** Each other account's client, by the account's name (a profile's `providers:` key). */
  accounts: Readonly<Record<string, ReelsmithClient>>;
  /** The account of each routed model, by model id. */
  models: ReadonlyMap<string, string>;
}

/**
 * One client over several provider accounts: it is `fallback` (its base URL, models list and
 * namespaces), and {@link clientForModel} gives the client of a routed model. Each account's
 * client keeps its own dialect, key, retries and idempotency.
 *
 * @example
 * ```ts
 * const client = routeClients({ fallback, accounts: { fal }, models: new Map([["fal-ai/kling", "fal"]]) });
 * clientForModel(client, "fal-ai/kling") === fal; // true
 * client.accountOf?.("fal-ai/kling"); // "fal"
 * ```
 */
export function routeClients(options: RouteClientsOptions): ReelsmithClient {
  const { fallback, accounts, models } = options;
  const accountOf = (model: string): string | undefined => {
    const name = models.get(model);
    return name !== undefined && Object.hasOwn(accounts, name) ? name : undefined;
  };
  return Object.freeze({
    ...fallback,
    forModel: (model: string) => {
      const name = accountOf(model);
      return name === undefined ? fallback : (accounts[name] ?? fallback);
    },
    accountOf,
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
