/** Returns a function that replaces every occurrence of `secret` in a string. */
export function createRedactor(secret: string | undefined): (text: string) => string {
  if (!secret) return (text) => text;
  return (text) => (text.includes(secret) ? text.split(secret).join("[redacted]") : text);
}
