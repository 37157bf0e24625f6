/** What replaces a secret in anything the CLI prints. */
export const REDACTED = "[redacted]";

/**
 * A function that removes every occurrence of the given secrets from a text: the raw value,
 * its JSON-escaped form and its URL-encoded form. Secrets shorter than 4 characters are ignored
 * (they would blank out ordinary words).
 *
 * @example
 * const redact = createRedactor(["sk-123456"]);
 * redact("key sk-123456"); // "key [redacted]"
 */
export function createRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let result = text;
    for (const form of ordered) {
      if (result.includes(form)) result = result.split(form).join(REDACTED);
    }
    return result;
  };
}

/** A place the CLI writes text to (stdout, stderr, or a test buffer). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  /** True once the reader went away (see closableSink): nothing written arrives. */
  readonly closed?: boolean;
}

/**
 * Wrap a sink so that every write goes through `redact` first (defence in depth: renderers
 * never format the key, and this pass removes it even if a library put it in a message).
 *
 * @example
 * const out = redactingSink(process.stdout, () => createRedactor([apiKey]));
 */
export function redactingSink(sink: TextSink, redactor: () => (text: string) => string): TextSink {
  return {
    write: (text: string) => sink.write(redactor()(text)),
    get isTTY() {
      return sink.isTTY;
    },
    get columns() {
      // A pseudo-terminal without a size reports 0 columns; let renderers fall back then.
      return sink.columns || undefined;
    },
    get rows() {
      return sink.rows || undefined;
    },
    get closed() {
      return sink.closed;
    },
  };
}
