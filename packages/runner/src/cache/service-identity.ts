/**
 * Identity of the simulator a command starts in-process. Its port changes with every run, but
 * its synthetic results do not depend on it, so runs on it share their cache entries (and
 * never those of a service at a URL).
 */
export const BUILT_IN_SERVICE = "builtin-simulator";

/**
 * Which service made a result, as it enters a cache key: the base URL's origin and path,
 * lower-cased scheme and host, default port dropped, trailing slashes removed; never the
 * credentials, query or fragment (so nothing secret reaches the key or the cache). A client
 * given to the runner without a base URL (a stand-in of the library's user) is "".
 * @example serviceIdentity("https://user:pw@API.example.com:443/v1/?x=1") // "https://api.example.com/v1"
 */
export function serviceIdentity(baseURL: string | undefined): string {
  if (typeof baseURL !== "string") return "";
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === "http:" || url.protocol === "https:"))
    return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  // No request can be made to it (core fetches http and https only); still keep out anything
  // that may be credentials, a query or a fragment.
  return baseURL
    .trim()
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i, "$1")
    .replace(/[?#].*$/, "")
    .replace(/\/+$/, "");
}

/**
 * How a run's client sends a model to another provider account (core's routed client has
 * both): the account's name, and a client (or anything with its `baseURL`) for the model.
 */
export interface ModelRouting {
  accountOf?(model: string): string | undefined;
  forModel?(model: string): unknown;
}

/**
 * Which service makes a request's result, as it enters its cache key: `own` (the run's), or,
 * for a model `routing` sends to another provider account, that account's (its address; on
 * the built-in simulator, the simulator's name with the account's). A unit and every
 * estimate of it key the request alike.
 * @example requestService("https://api.example.com", client, "fal-ai/kling") // "https://fal.run" (routed to fal)
 */
export function requestService(
  own: string,
  routing: ModelRouting | undefined,
  model: unknown,
): string {
  if (typeof model !== "string") return own;
  const account = routing?.accountOf?.(model);
  if (account === undefined) return own;
  if (own === BUILT_IN_SERVICE) return `${BUILT_IN_SERVICE}@${account}`;
  const routed = routing?.forModel?.(model) as { baseURL?: string } | undefined;
  return serviceIdentity(routed?.baseURL);
}

/**
 * The routing of a profile's provider accounts as a cache key needs it, without their
 * clients: each routed model's account (`models`, by model id) and that account's address.
 * @example accountRouting([{ name: "fal", baseURL: "https://fal.run" }], { "fal-ai/kling": "fal" }).accountOf?.("fal-ai/kling") // "fal"
 */
export function accountRouting(
  accounts: readonly { name: string; baseURL?: string | undefined }[],
  models: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
): ModelRouting | undefined {
  if (accounts.length === 0) return undefined;
  const byName = new Map(accounts.map((account) => [account.name, account]));
  const named = models instanceof Map ? models : new Map(Object.entries(models));
  const accountOf = (model: string) => {
    const name = named.get(model);
    return name !== undefined && byName.has(name) ? name : undefined;
  };
  return {
    accountOf,
    forModel: (model) => {
      const name = accountOf(model);
      return name === undefined ? undefined : { baseURL: byName.get(name)?.baseURL };
    },
  };
}
