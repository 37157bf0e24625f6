import { randomUUID } from "node:crypto";
import type { ResolvedConfig } from "../client/config.js";
import { refuseRequest } from "../errors/refuse-request.js";
import type { RequestOptions } from "../http/request-options.js";
import type { Transport } from "../http/transport.js";
import { imageRequestProblems } from "../media-files/media-request-problems.js";
import { numberedPath, readAll, saveBytes } from "../media-files/save-bytes.js";
import type { AnsweredImages, ImageProvider } from "../providers/image-provider.js";
import { imageProvider } from "../providers/registry.js";
import type { ImageModelSpec } from "./image-model-spec.js";
import type {
  GeneratedImage,
  ImageEditParams,
  ImageGenerateParams,
  ImageResult,
} from "./image-types.js";

/** Options of `images.generate()` and `images.edit()`. */
export interface ImageRequestOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key`; a random UUID when absent. A connection lost after the request
   * was sent is an `AmbiguousSubmissionError` (never retried blindly, so never paid twice):
   * send again with its key to a service that honours it.
   */
  idempotencyKey?: string;
  /** Save the images: a path (`-1`, `-2`, … added before the extension when n > 1) or a function of the index. */
  to?: string | ((index: number) => string);
}

/**
 * `client.images`: image generation and edits with references, through the client's
 * provider (its registry entry's `image` side: the interface's `POST /v1/images/…`, …). Images
 * come back as bytes (and files with `to`), whether the provider answers `b64_json` or `url`.
 *
 * @example
 * ```ts
 * const { files } = await client.images.generate({ model: "gpt-image-1", prompt: "A keeper", size: "1024x1024" }, { to: "keeper.png" });
 * const keyframe = await client.images.edit({ model: "gpt-image-1", prompt: "On the cliff", references: ["keeper.png"] }, { to: "scene-1.png" });
 * ```
 */
export class Images {
  constructor(
    private readonly transport: Transport<ResolvedConfig>,
    private readonly models: readonly ImageModelSpec[] | null | undefined,
  ) {}

  /** The image side of the client's provider (a TypeError when it has none). */
  get provider(): ImageProvider {
    return imageProvider(this.transport.config.dialect);
  }

  /** Makes `n` images from a prompt (checked against the profile's model when known). */
  async generate(
    params: ImageGenerateParams,
    options: ImageRequestOptions = {},
  ): Promise<ImageResult> {
    const provider = this.provider;
    const spec = this.models?.find((model) => model.id === params.model);
    refuseRequest([
      ...imageRequestProblems(params, undefined, this.models),
      ...provider.problems(params, spec),
    ]);
    const { idempotencyKey = randomUUID(), to, ...request } = options;
    const answer = await provider.generate(
      { transport: this.transport },
      { params, idempotencyKey, spec, request },
    );
    return this.#result(answer, params.n ?? 1, to, request);
  }

  /** Makes images from a prompt and reference images (the interface's: multipart, `image[]`). */
  async edit(params: ImageEditParams, options: ImageRequestOptions = {}): Promise<ImageResult> {
    const provider = this.provider;
    const spec = this.models?.find((model) => model.id === params.model);
    const references = Array.isArray(params.references) ? params.references : [];
    refuseRequest([
      ...imageRequestProblems(params, references.length, this.models),
      ...provider.problems(params, spec),
      ...(provider.edit
        ? []
        : [
            {
              field: "references",
              message: `the ${provider.name} provider makes no image from reference images: leave out the references, or use a provider that edits`,
            },
          ]),
    ]);
    const { idempotencyKey = randomUUID(), to, ...request } = options;
    const answer = await provider.edit?.(
      { transport: this.transport },
      { params, idempotencyKey, spec, request },
    );
    return this.#result(answer ?? { data: [], requestId: undefined }, params.n ?? 1, to, request);
  }

  async #result(
    answered: AnsweredImages,
    asked: number,
    to: ImageRequestOptions["to"],
    request: RequestOptions,
  ): Promise<ImageResult> {
    const { data, requestId } = answered;
    const images: GeneratedImage[] = [];
    const files: string[] = [];
    for (const [index, item] of data.entries()) {
      let bytes: Uint8Array;
      if (typeof item.b64_json === "string") bytes = Buffer.from(item.b64_json, "base64");
      else if (typeof item.url === "string") {
        const response = await this.transport.stream({
          method: "GET",
          path: item.url,
          accept: "*/*",
          options: request,
        });
        bytes = await readAll(this.transport, response);
      } else continue;
      const image: GeneratedImage = { bytes };
      if (item.url) image.url = item.url;
      if (item.revised_prompt) image.revised_prompt = item.revised_prompt;
      if (to !== undefined) {
        image.file = await saveBytes(numberedPath(to, index, Math.max(asked, data.length)), bytes);
        files.push(image.file);
      }
      images.push(image);
    }
    const result: ImageResult = {
      created: answered.created ?? Math.floor(Date.now() / 1000),
      images,
      files,
      requestId,
    };
    const revised = images[0]?.revised_prompt;
    if (revised !== undefined) result.revised_prompt = revised;
    if (answered.size) result.size = answered.size;
    if (answered.usage) result.usage = answered.usage;
    return result;
  }
}
