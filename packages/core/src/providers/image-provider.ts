import type { RequestProblem } from "../errors/invalid-request-error.js";
import type { ProviderAccess } from "../http/provider-access.js";
import type { RequestOptions } from "../http/request-options.js";
import type { ImageModelSpec } from "../images/image-model-spec.js";
import type { ImageEditParams, ImageGenerateParams } from "../images/image-types.js";
import type { ProviderContext } from "./video-provider.js";

/** One image request to make: the checked params, the caller's key, the model's spec if known. */
export interface ImageRequest<P extends ImageGenerateParams = ImageGenerateParams> {
  params: P;
  /** Chosen by the caller and journaled before the request leaves; sent where the provider honours one. */
  idempotencyKey: string;
  spec: ImageModelSpec | undefined;
  request: RequestOptions;
}

/** One image as a provider answered it: its bytes inline (base64) or an address to fetch them from. */
export interface AnsweredImage {
  b64_json?: string;
  url?: string;
  revised_prompt?: string;
}

/** What a provider answered to an image request (core fetches the URLs and saves the files). */
export interface AnsweredImages {
  data: AnsweredImage[];
  /** Unix seconds, when the provider says. */
  created?: number;
  size?: string;
  usage?: Record<string, unknown>;
  requestId: string | undefined;
}

/**
 * The image side of a provider: how core makes images from a prompt, and from reference
 * images where the provider edits. Each lives in its provider's folder under
 * `core/src/providers/<name>/` and is listed once in the registry as the entry's `image`;
 * nothing outside its folder names it.
 *
 * @example
 * ```ts
 * const answer = await imageProvider("reference").generate({ transport }, { params, idempotencyKey, spec, request: {} });
 * ```
 */
export interface ImageProvider extends ProviderAccess {
  /** Its own checks of a request before anything is sent (the generic ones are core's). */
  problems(params: ImageGenerateParams, spec: ImageModelSpec | undefined): RequestProblem[];
  /** Sends a generation once (the transport resends only what cannot have been carried out). */
  generate(context: ProviderContext, generation: ImageRequest): Promise<AnsweredImages>;
  /** Sends an edit with reference images once; absent where the provider takes none. */
  edit?(context: ProviderContext, edit: ImageRequest<ImageEditParams>): Promise<AnsweredImages>;
}
