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
