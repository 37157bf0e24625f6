const secretNames = new Set([
  "apikey",
  "key",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "authorization",
  "auth",
  "bearer",
  "credential",
  "credentials",
  "cookie",
]);
const secretEndings = [
  "apikey",
  "token",
  "tokens",
  "secret",
  "secrets",
  "password",
  "passwd",
  "passphrase",
  "accesskey",
  "privatekey",
  "credential",
  "credentials",
  "bearer",
];

/**
 * Whether a key of a profile looks like it holds a credential (`api_key`, `apiKey`, `key`,
 * `token`, `secret`, `password`, `passwd`, `authorization`, `bearer`, `credentials`, or names
 * ending so, like `access_token`; `max_tokens` counts tokens and is not one).
 * `api_key_env` (the names of environment variables) is not one.
 *
 * @example
 * ```ts
 * looksLikeSecretKey("apiKey"); // true
 * looksLikeSecretKey("api_key_env"); // false
 * ```
 */
export function looksLikeSecretKey(key: string): boolean {
  const squashed = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (squashed === "apikeyenv" || /^(max|min)tokens$/.test(squashed)) return false;
  return secretNames.has(squashed) || secretEndings.some((ending) => squashed.endsWith(ending));
}

/**
 * The JSON pointers of every key in `value` (at any depth) that looks like a secret.
 *
 * @example
 * ```ts
 * findSecretKeys({ service: { api_key: "sk-…" } }); // ["/service/api_key"]
 * ```
 */
export function findSecretKeys(value: unknown, pointer = ""): string[] {
  if (value === null || typeof value !== "object") return [];
  const found: string[] = [];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, child] of entries) {
    const path = `${pointer}/${escapePointer(key)}`;
    if (!Array.isArray(value) && looksLikeSecretKey(key)) found.push(path);
    else found.push(...findSecretKeys(child, path));
  }
  return found;
}

/** Escapes one JSON pointer segment (`~` → `~0`, `/` → `~1`). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Known shapes of keys: provider prefixes, auth schemes, JSON web tokens. */
const keyShapes = [
  /^(?:sk|rk|pk)[-_][A-Za-z0-9_-]{8,}/,
  /^(?:ghp|gho|ghs|ghu|github_pat|glpat|xox[abpr])[-_][A-Za-z0-9_-]{8,}/,
  /^AKIA[0-9A-Z]{12,}/,
  /^AIza[0-9A-Za-z_-]{20,}/,
  /^eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  /^(?:bearer|basic|token)\s+\S{8,}/i,
];

/** Shannon entropy of a text, in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Whether a value looks like a credential whatever key holds it: a provider key (`sk-…`,
 * `ghp_…`, `AKIA…`), `Bearer …`, a JSON web token, or a long high-entropy token (32+
 * characters mixing upper case, lower case and digits, or 32+ hex digits). Model ids, sizes,
 * URLs and prose are not.
 *
 * @example
 * ```ts
 * looksLikeSecretValue("sk-test-SECRET-0123456789abcdef"); // true
 * looksLikeSecretValue("stable-video-diffusion-img2vid-xt-1-1"); // false
 * ```
 */
export function looksLikeSecretValue(value: string): boolean {
  const text = value.trim();
  if (text.length < 12) return false;
  if (keyShapes.some((shape) => shape.test(text))) return true;
  if (text.length < 32 || /\s|:\/\//.test(text)) return false;
  const mixed = /[a-z]/.test(text) && /[A-Z]/.test(text) && /[0-9]/.test(text);
  return (mixed || /^[0-9a-f]{32,}$/i.test(text)) && entropy(text) >= 3.5;
}

/**
 * A text with each word that looks like a credential replaced by `<redacted>` (and the user
 * and password of a URL by `***`), for a message that quotes what a user wrote.
 *
 * @example
 * ```ts
 * maskSecretValues('got "sk-test-SECRET-0123456789abcdef"'); // 'got "<redacted>"'
 * ```
 */
export function maskSecretValues(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@"'`]+@/gi, "$1***@")
    .replace(/\b(bearer|basic)\s+[^\s"',}\]]{8,}/gi, "$1 <redacted>")
    .replace(/[^\s"'`,{}[\]()<>]{12,}/g, (word) =>
      looksLikeSecretValue(word) ? "<redacted>" : word,
    );
}

/**
 * The JSON pointers of every value (and map key) in `value` that looks like a credential
 * ({@link looksLikeSecretValue}), outside keys that already look like secrets.
 *
 * @example
 * ```ts
 * findSecretValues({ service: { api_key_env: ["MY_KEY", "sk-test-0123456789abcdef"] } }); // ["/service/api_key_env/1"]
 * ```
 */
export function findSecretValues(value: unknown, pointer = ""): string[] {
  if (typeof value === "string") return looksLikeSecretValue(value) ? [pointer] : [];
  if (value === null || typeof value !== "object") return [];
  const found: string[] = [];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, child] of entries) {
    const path = `${pointer}/${escapePointer(key)}`;
    if (Array.isArray(value)) found.push(...findSecretValues(child, path));
    else if (looksLikeSecretValue(key)) found.push(path);
    else if (!looksLikeSecretKey(key)) found.push(...findSecretValues(child, path));
  }
  return found;
}
