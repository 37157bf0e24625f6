import { appendFile, type ReadFile } from "./file-input.js";

/**
 * A multipart body of text fields (a list repeats its field) and file parts, serialised once
 * so that a retry sends the very same bytes and boundary.
 *
 * @example
 * const body = await encodeForm({ model: "m", prompt: "p" }, [["image[]", file]]);
 */
export async function encodeForm(
  fields: Record<string, string | number | boolean | readonly string[] | undefined>,
  files: readonly [string, ReadFile][],
): Promise<{ bytes: Uint8Array; contentType: string }> {
  // Loaded when a body is encoded: the providers that encode one sit in the registry, which the
  // light entry points (/profile, /catalog) reach, and those must not load an HTTP client.
  const { FormData, Response } = await import("undici");
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) form.append(name, item);
    else form.append(name, String(value));
  }
  for (const [name, file] of files) appendFile(form, name, file);
  const response = new Response(form);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, contentType: response.headers.get("content-type") ?? "multipart/form-data" };
}
