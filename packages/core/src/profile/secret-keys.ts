const secretNames = new Set(["apikey", "key", "token", "secret", "password", "authorization"]);
const secretEndings = ["apikey", "token", "secret", "password", "accesskey", "privatekey"];

/**
 * Whether a key of a profile looks like it holds a credential (`api_key`, `apiKey`, `key`,
 * `token`, `secret`, `password`, `authorization`, or names ending so, like `access_token`).
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
  if (squashed === "apikeyenv") return false;
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
