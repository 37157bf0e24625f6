/**
 * `key: value` inside a YAML line, block or flow style: the key (maybe quoted), the separator,
 * and the value up to a `,`, `}`, `]`, a comment or the end of the line.
 */
const keyValue =
  /(["']?)([A-Za-z0-9_.-]+)\1(\s*:(?:[ \t]+|(?=["'])))("[^"]*"|'[^']*'|[^\s,}\]#][^,}\]#]*?)(?=[ \t]*(?:[,}\]]|#|$))/g;

/**
 * A line of a profile with the value of every key that looks like a secret (`api_key`,
 * `token`, `password`, …) replaced by `<redacted>`, so a message that quotes the line never
 * shows the key it is refusing. `isSecretKey` is core's `looksLikeSecretKey` (passed in, so
 * that this module loads without core's schema validator).
 *
 * @example
 * ```ts
 * maskSecrets("  api_key: sk-live-123 # mine", looksLikeSecretKey); // "  api_key: <redacted> # mine"
 * ```
 */
export function maskSecrets(line: string, isSecretKey: (key: string) => boolean): string {
  return line.replace(keyValue, (whole, quote: string, key: string, separator: string) =>
    isSecretKey(key) ? `${quote}${key}${quote}${separator}<redacted>` : whole,
  );
}
