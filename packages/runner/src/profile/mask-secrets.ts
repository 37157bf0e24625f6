import { looksLikeSecretKey } from "@reelsmith/core/profile";

/**
 * `key: value` inside a YAML line, block or flow style: the key (maybe quoted), the separator,
 * and the value up to a `,`, `}`, `]`, a comment or the end of the line.
 */
const keyValue =
  /(["']?)([A-Za-z0-9_.-]+)\1(\s*:(?:[ \t]+|(?=["'])))("[^"]*"|'[^']*'|[^\s,}\]#][^,}\]#]*?)(?=[ \t]*(?:[,}\]]|#|$))/g;

/**
 * A line of a profile with the value of every key that looks like a secret (`api_key`,
 * `token`, `password`, …) replaced by `<redacted>`, so a message that quotes the line never
 * shows the key it is refusing.
 *
 * @example
 * ```ts
 * maskSecrets("  api_key: sk-live-123 # mine"); // "  api_key: <redacted> # mine"
 * ```
 */
export function maskSecrets(line: string): string {
  return line.replace(keyValue, (whole, quote: string, key: string, separator: string) =>
    looksLikeSecretKey(key) ? `${quote}${key}${quote}${separator}<redacted>` : whole,
  );
}
