import { createHash } from "node:crypto";
import { HttpError } from "../errors/http-error.js";
import type { RequestContext } from "../server/context.js";
import { readBody } from "../server/http-io.js";
import type { ReceivedVideoRequest } from "./received-video-request.js";

/**
 * The body of `POST /v1/videos` as an object, and what was received: JSON (the spec), or
 * `multipart/form-data` as the official openai SDK sends it, where the `input_reference` file
 * (or an `input_reference[image_url]` field) becomes `image_url`, and other file parts become
 * data URIs under their own names (image parameters).
 *
 * @example
 * const { body, multipart, received } = await readVideoBody(context, simulator.maxBodyBytes);
 */
export async function readVideoBody(
  context: RequestContext,
  limit: number,
): Promise<{ body: Record<string, unknown>; multipart: boolean; received: ReceivedVideoRequest }> {
  const type = context.request.headers["content-type"] ?? "";
  const key = context.request.headers["idempotency-key"];
  const base = typeof key === "string" && key !== "" ? { idempotencyKey: key } : {};
  if (!/^multipart\/form-data\b/i.test(type)) {
    const body = await context.readJson();
    return {
      body,
      multipart: false,
      received: { contentType: "application/json", ...base, fields: { ...body }, files: [] },
    };
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
  const body: Record<string, unknown> = {};
  const received: ReceivedVideoRequest = {
    contentType: "multipart/form-data",
    ...base,
    fields: {},
    files: [],
  };
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") {
      received.fields[name] = value;
      if (name === "input_reference[image_url]") body.image_url = value;
      else body[name] = value;
      continue;
    }
    const content = Buffer.from(await value.arrayBuffer());
    const mime = value.type || "application/octet-stream";
    received.files.push({
      field: name,
      filename: value.name,
      contentType: mime,
      bytes: content.length,
      sha256: createHash("sha256").update(content).digest("hex"),
    });
    const dataUri = `data:${mime};base64,${content.toString("base64")}`;
    if (name === "input_reference" || name === "image") body.image_url = dataUri;
    else body[name] = dataUri;
  }
  return { body, multipart: true, received };
}
