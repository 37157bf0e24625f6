import { Blob } from "node:buffer";
import { FormData, Response } from "undici";
import { imageAsURL, resolveImageInput } from "../images/image-input.js";
import type {
  ImageInput,
  ParamSpec,
  VideoCreateParams,
  VideoDialect,
  VideoParamValue,
} from "./types.js";

/** A `POST /v1/videos` body: JSON (reference) or multipart bytes with their content type (openai). */
export type EncodedVideoRequest =
  | { json: Record<string, unknown> }
  | { multipart: { bytes: Uint8Array; contentType: string } };

/**
 * Encodes a video request in a dialect. `reference`: a JSON body (`seconds` as a string, the
 * image as `image_url`, provider params as extra fields, image params as URL/data-URI strings).
 * `openai`: `multipart/form-data` (`input_reference` as a file part with its type and name,
 * provider params as form fields, image params as file parts). A param is an image when the
 * model's spec says so, or when it is given as bytes.
 *
 * @example
 * ```ts
 * const encoded = await encodeVideoRequest({ model: "sora-2", prompt: "a fox", image: png }, "openai");
 * ```
 */
export async function encodeVideoRequest(
  params: VideoCreateParams,
  dialect: VideoDialect,
  paramSpecs?: Readonly<Record<string, ParamSpec>>,
): Promise<EncodedVideoRequest> {
  const image: ImageInput | undefined = params.image ?? params.image_url;
  const isImage = (name: string, value: VideoParamValue): value is ImageInput =>
    paramSpecs?.[name]?.type === "image" ||
    value instanceof Uint8Array ||
    (typeof value === "object" && value !== null);
  const seconds = params.seconds === undefined ? undefined : String(params.seconds).trim();
  if (dialect === "reference") {
    const json: Record<string, unknown> = { model: params.model, prompt: params.prompt };
    if (seconds !== undefined) json.seconds = seconds;
    if (params.size !== undefined) json.size = params.size;
    if (image !== undefined) json.image_url = imageAsURL(image, "image");
    for (const [name, value] of Object.entries(params.params ?? {})) {
      json[name] = isImage(name, value) ? imageAsURL(value, `params.${name}`) : value;
    }
    return { json };
  }
  const form = new FormData();
  form.append("model", params.model);
  form.append("prompt", params.prompt);
  if (seconds !== undefined) form.append("seconds", seconds);
  if (params.size !== undefined) form.append("size", params.size);
  if (image !== undefined) appendImage(form, "input_reference", image, "input_reference");
  for (const [name, value] of Object.entries(params.params ?? {})) {
    if (isImage(name, value)) appendImage(form, name, value, `params.${name}`);
    else form.append(name, String(value));
  }
  // Serialised once, so a retry sends the very same bytes (and boundary).
  const response = new Response(form);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const contentType = response.headers.get("content-type") ?? "multipart/form-data";
  return { multipart: { bytes, contentType } };
}

function appendImage(form: FormData, name: string, image: ImageInput, field: string): void {
  const resolved = resolveImageInput(image, field);
  if (resolved.kind === "url") {
    // As OpenAI's SDK sends an { image_url } reference in a multipart body.
    form.append(`${name}[image_url]`, resolved.url);
    return;
  }
  const blob = new Blob([resolved.bytes], { type: resolved.mimeType });
  form.append(name, blob as unknown as globalThis.Blob, resolved.filename);
}
