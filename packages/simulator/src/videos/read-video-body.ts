import { HttpError } from "../errors/http-error.js";
import type { RequestContext } from "../server/context.js";
import { readBody } from "../server/http-io.js";

/**
 * The body of `POST /v1/videos` as an object: JSON (the spec), or `multipart/form-data` as the
 * official openai SDK sends it, where an `input_reference` file becomes an `image_url` data URI.
 *
 * @example
 * const body = await readVideoBody(context, simulator.maxBodyBytes);
 */
export async function readVideoBody(
  context: RequestContext,
  limit: number,
): Promise<Record<string, unknown>> {
  const type = context.request.headers["content-type"] ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) return context.readJson();
  const bytes = await readBody(context.request, limit);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new HttpError(400, "We could not parse the multipart/form-data body of your request.", {
      code: "invalid_body",
    });
  }
  const body: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") body[name] = value;
    else if (name === "input_reference" || name === "image") {
      const mime = value.type || "application/octet-stream";
      body.image_url = `data:${mime};base64,${Buffer.from(await value.arrayBuffer()).toString("base64")}`;
    }
  }
  return body;
}
