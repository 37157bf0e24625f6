/**
 * A URL for a message: its user name and password replaced by `***`, never shown.
 *
 * @example
 * ```ts
 * maskURLCredentials("http://user:sk-1@host:8080/v1"); // "http://***@host:8080/v1"
 * ```
 */
export function maskURLCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1***@");
}

/**
 * What is wrong with a base URL, or undefined: not a URL, not http(s), no host, or
 * credentials in it (a key belongs in `apiKey` / `REELSMITH_API_KEY`, never in a URL that is
 * stored with a run and shown in messages). The message never shows the credentials.
 *
 * @example
 * ```ts
 * baseURLProblem("http://user:sk-1@host:8080"); // "the base URL holds credentials (http://***@host:8080)…"
 * baseURLProblem("https://api.example.com"); // undefined
 * ```
 */
export function baseURLProblem(value: string): string | undefined {
  const shown = JSON.stringify(maskURLCredentials(value.trim()));
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return `the base URL is not a valid URL: ${shown}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `the base URL must be http(s), got ${url.protocol}`;
  if (url.hostname === "") return `the base URL has no host: ${shown}`;
  if (url.username !== "" || url.password !== "")
    return `the base URL holds credentials (${maskURLCredentials(url.href)}); nothing was sent. Put the key in REELSMITH_API_KEY (or apiKey) and give the base URL without them`;
  return undefined;
}
