import { randomUUID } from "node:crypto";
import type { RequestOptions } from "../client/options.js";
import { refuseRequest } from "../errors/refuse-request.js";
import type { Transport } from "../http/transport.js";
import { encodeForm } from "../media-files/encode-form.js";
import { type ReadFile, readFileInput } from "../media-files/file-input.js";
import { imageRequestProblems } from "../media-files/media-request-problems.js";
import { numberedPath, readAll, saveBytes } from "../media-files/save-bytes.js";
import type { ImageModelSpec } from "../profile/media-catalog-from-profile.js";
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

interface ImagesAnswer {
  created?: number;
  data?: { url?: string; b64_json?: string; revised_prompt?: string }[];
  size?: string;
  usage?: Record<string, unknown>;
}

/**
 * `client.images`: image generation and edits with references (OpenAI's shapes). Images
 * come back as bytes (and files with `to`), whether the service answers `b64_json` or `url`.
 *
 * @example
 * ```ts
 * const { files } = await client.images.generate({ model: "gpt-image-1", prompt: "A keeper", size: "1024x1024" }, { to: "keeper.png" });
 * const keyframe = await client.images.edit({ model: "gpt-image-1", prompt: "On the cliff", references: ["keeper.png"] }, { to: "scene-1.png" });
 * ```
 */
export class Images {
  constructor(
    private readonly transport: Transport,
    private readonly models: readonly ImageModelSpec[] | null | undefined,
  ) {}

  /** `POST /v1/images/generations`; `n` images (checked against the profile's model when known). */
  async generate(
    params: ImageGenerateParams,
    options: ImageRequestOptions = {},
  ): Promise<ImageResult> {
    refuseRequest(imageRequestProblems(params, undefined, this.models));
    const { idempotencyKey = randomUUID(), to, ...request } = options;
    const response = await this.transport.json<ImagesAnswer>({
      method: "POST",
      path: "/v1/images/generations",
      body: {
        ...params.params,
        ...withoutParams(params),
        response_format: params.response_format ?? "b64_json",
      },
      options: request,
      submission: { idempotencyKey, request: "POST /v1/images/generations" },
    });
    return this.#result(response.data, response.requestId, params.n ?? 1, to, request);
  }

  /** `POST /v1/images/edits` (multipart, the references as `image[]`). */
  async edit(params: ImageEditParams, options: ImageRequestOptions = {}): Promise<ImageResult> {
    const references = Array.isArray(params.references) ? params.references : [];
    refuseRequest(imageRequestProblems(params, references.length, this.models));
    const files: [string, ReadFile][] = [];
    for (const [index, reference] of references.entries()) {
      files.push([
        "image[]",
        await readFileInput(reference, `references[${index}]`, `reference-${index + 1}.png`),
      ]);
    }
    const { references: _references, params: extra, ...fields } = params;
    const body = await encodeForm(
      { ...extra, ...fields, response_format: params.response_format ?? "b64_json" },
      files,
    );
    const { idempotencyKey = randomUUID(), to, ...request } = options;
    const response = await this.transport.json<ImagesAnswer>({
      method: "POST",
      path: "/v1/images/edits",
      rawBody: body,
      options: request,
      submission: { idempotencyKey, request: "POST /v1/images/edits" },
    });
    return this.#result(response.data, response.requestId, params.n ?? 1, to, request);
  }

  async #result(
    answer: ImagesAnswer,
    requestId: string | undefined,
    asked: number,
    to: ImageRequestOptions["to"],
    request: RequestOptions,
  ): Promise<ImageResult> {
    const data = answer?.data ?? [];
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
      created: answer?.created ?? Math.floor(Date.now() / 1000),
      images,
      files,
      requestId,
    };
    const revised = images[0]?.revised_prompt;
    if (revised !== undefined) result.revised_prompt = revised;
    if (answer?.size) result.size = answer.size;
    if (answer?.usage) result.usage = answer.usage;
    return result;
  }
}

function withoutParams(params: ImageGenerateParams): Omit<ImageGenerateParams, "params"> {
  const { params: _params, ...rest } = params;
  return rest;
}
