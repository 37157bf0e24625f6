const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for HTML element content and quoted attribute values. Every string that comes
 * from a pipeline, a model or a file name goes through it.
 * @example escapeHtml('<script>alert("x")</script>') // "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * A relative URL for a file of the run directory: each path segment percent-encoded, so a
 * file name can neither leave the attribute nor become another scheme (`javascript:`).
 * @example relativeUrl("clips/scene 1.mp4") // "clips/scene%201.mp4"
 */
export function relativeUrl(relative: string): string {
  return escapeHtml(
    relative
      .split("/")
      .map((segment) => encodeURIComponent(segment))
      .join("/"),
  );
}

/** Pretty JSON for a <pre> block (escaped). */
export function jsonBlock(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return escapeHtml(text);
}

/** A number of credits or tokens as the page shows it. */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** A duration in ms as "850 ms", "12.4 s" or "3 min 05 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${String(seconds).padStart(2, "0")} s`;
}
