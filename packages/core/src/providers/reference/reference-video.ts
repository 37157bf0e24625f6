import { imageAsURL } from "../../images/image-input.js";
import type {
  ImageInput,
  ParamSpec,
  VideoCreateParams,
  VideoParamValue,
} from "../../videos/types.js";
import {
  createV1VideosProvider,
  type EncodedVideoRequest,
} from "../../videos/v1-videos-provider.js";

/** Whether a provider param is an image: the model's spec says so, or it is given as bytes. */
export function isImageParam(
  paramSpecs: Readonly<Record<string, ParamSpec>> | undefined,
  name: string,
  value: VideoParamValue,
): value is ImageInput {
  return (
    paramSpecs?.[name]?.type === "image" ||
    value instanceof Uint8Array ||
    (typeof value === "object" && value !== null)
  );
}

/**
 * The reference dialect's body: JSON, `seconds` as a string, the image as `image_url` (a URL
 * or data URI), provider params as extra fields (image params as URL/data-URI strings).
 */
async function encodeReference(
  params: VideoCreateParams,
  paramSpecs?: Readonly<Record<string, ParamSpec>>,
): Promise<EncodedVideoRequest> {
  const image: ImageInput | undefined = params.image ?? params.image_url;
  const seconds = params.seconds === undefined ? undefined : String(params.seconds).trim();
  const json: Record<string, unknown> = { model: params.model, prompt: params.prompt };
  if (seconds !== undefined) json.seconds = seconds;
  if (params.size !== undefined) json.size = params.size;
  if (image !== undefined) json.image_url = imageAsURL(image, "image");
  for (const [name, value] of Object.entries(params.params ?? {})) {
    json[name] = isImageParam(paramSpecs, name, value)
      ? imageAsURL(value, `params.${name}`)
      : value;
  }
  return { json };
}

/**
 * The service interface's own dialect (`shared/spec/service-interface.md`): JSON bodies,
 * `pending`/`processing`, `created`, `usage.total_credits`.
 */
export const referenceVideoProvider = createV1VideosProvider({
  name: "reference",
  description: "the service interface: JSON bodies on /v1/videos",
  keyEnv: "REELSMITH_API_KEY",
  encode: encodeReference,
});
