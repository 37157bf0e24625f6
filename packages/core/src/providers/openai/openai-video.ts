import { Blob } from "node:buffer";
import { resolveImageInput } from "../../images/image-input.js";
import type { ImageInput, ParamSpec, VideoCreateParams } from "../../videos/types.js";
import {
  createV1VideosProvider,
  type EncodedVideoRequest,
} from "../../videos/v1-videos-provider.js";
import { isImageParam } from "../reference/index.js";

/**
 * OpenAI's body: `multipart/form-data`, `input_reference` as a file part with its type and
 * name, provider params as form fields, image params as file parts.
 */
async function encodeOpenAI(
  params: VideoCreateParams,
  paramSpecs?: Readonly<Record<string, ParamSpec>>,
): Promise<EncodedVideoRequest> {
  const image: ImageInput | undefined = params.image ?? params.image_url;
  const seconds = params.seconds === undefined ? undefined : String(params.seconds).trim();
  // Loaded here, so that the profile and catalog entry points, which list the providers, load no HTTP client.
  const { FormData, Response } = await import("undici");
  const form = new FormData();
  form.append("model", params.model);
  form.append("prompt", params.prompt);
  if (seconds !== undefined) form.append("seconds", seconds);
  if (params.size !== undefined) form.append("size", params.size);
  if (image !== undefined) appendImage(form, "input_reference", image, "input_reference");
  for (const [name, value] of Object.entries(params.params ?? {})) {
    if (isImageParam(paramSpecs, name, value)) appendImage(form, name, value, `params.${name}`);
    else form.append(name, String(value));
  }
  // Serialised once, so a retry sends the very same bytes (and boundary).
  const response = new Response(form);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const contentType = response.headers.get("content-type") ?? "multipart/form-data";
  return { multipart: { bytes, contentType } };
}

function appendImage(
  form: import("undici").FormData,
  name: string,
  image: ImageInput,
  field: string,
): void {
  const resolved = resolveImageInput(image, field);
  if (resolved.kind === "url") {
    // As OpenAI's SDK sends an { image_url } reference in a multipart body.
    form.append(`${name}[image_url]`, resolved.url);
    return;
  }
  const blob = new Blob([resolved.bytes], { type: resolved.mimeType });
  form.append(name, blob as unknown as globalThis.Blob, resolved.filename);
}

/**
 * OpenAI's `/v1/videos`: multipart bodies, `queued`/`in_progress`, `created_at`, `progress`,
 * `error: { code, message }`, no credits (priced from the profile).
 */
export const openaiVideoProvider = createV1VideosProvider({
  name: "openai",
  description: "OpenAI's /v1/videos: multipart bodies",
  keyEnv: "OPENAI_API_KEY",
  defaultBaseURL: "https://api.openai.com/v1",
  encode: encodeOpenAI,
});
