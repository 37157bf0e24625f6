import { createHash } from "node:crypto";
import { HttpError } from "../errors/http-error.js";
import type { RequestContext, SimulatorContext } from "./context.js";
import { readBody } from "./http-io.js";

/** One file part of a multipart request. */
export interface FormFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
  sha256: string;
}

/** A `multipart/form-data` body: text fields (a repeated field is a list) and files in order. */
export interface ReadForm {
  fields: Record<string, string | string[]>;
  files: FormFile[];
}

/**
 * Read a `multipart/form-data` body (a 400 for another type or a body that does not parse;
 * a 413 past `limit` bytes).
 *
 * @example
 * const { fields, files } = await readForm(context, simulator.maxBodyBytes);
 */
export async function readForm(context: RequestContext, limit: number): Promise<ReadForm> {
  const type = context.request.headers["content-type"] ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) {
    context.request.resume();
    throw new HttpError(400, `Expected Content-Type multipart/form-data; got ${type || "none"}`, {
      code: "invalid_content_type",
    });
  }
  const bytes = await readBody(context.request, limit);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new HttpError(400, "We could not parse the multipart/form-data body of your request.", {
      code: "invalid_body",
    });
  }
  const fields: Record<string, string | string[]> = {};
  const files: FormFile[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") {
      const previous = fields[name];
      fields[name] =
        previous === undefined
          ? value
          : [...(Array.isArray(previous) ? previous : [previous]), value];
      continue;
    }
    const content = Buffer.from(await value.arrayBuffer());
    files.push({
      field: name,
      filename: value.name,
      contentType: value.type || "application/octet-stream",
      bytes: content,
      sha256: createHash("sha256").update(content).digest("hex"),
    });
  }
  return { fields, files };
}

/** The idempotency key of a request, if it sent one. */
export function idempotencyKeyOf(
  context: RequestContext,
  simulator: Pick<SimulatorContext, "honoursIdempotencyKeys">,
): string | undefined {
  if (!simulator.honoursIdempotencyKeys) return undefined;
  const key = context.request.headers["idempotency-key"];
  return typeof key === "string" && key !== "" ? key : undefined;
}
