import { accessOf, type ProviderAccess } from "../http/provider-access.js";
import { encodeForm } from "../media-files/encode-form.js";
import { type ReadFile, readFileInput } from "../media-files/file-input.js";
import type { AnsweredImages, ImageProvider } from "../providers/image-provider.js";
import type { ImageGenerateParams } from "./image-types.js";

interface ImagesAnswer {
  created?: number;
  data?: { url?: string; b64_json?: string; revised_prompt?: string }[];
  size?: string;
  usage?: Record<string, unknown>;
}

/**
 * The image side of a provider that speaks the interface's `POST /v1/images/generations` and
 * `POST /v1/images/edits` (OpenAI's shapes: JSON in, multipart with `image[]` for edits,
 * `b64_json` or `url` out), with the auth and idempotency header of its other sides.
 *
 * @example
 * ```ts
 * export const openaiImageProvider = createV1ImagesProvider(openaiVideoProvider);
 * ```
 */
export function createV1ImagesProvider(access: ProviderAccess): ImageProvider {
  return {
    ...accessOf(access),
    problems: () => [],
    async generate({ transport }, { params, idempotencyKey, request }) {
      const response = await transport.json<ImagesAnswer>({
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
      return answered(response.data, response.requestId);
    },
    async edit({ transport }, { params, idempotencyKey, request }) {
      const references = Array.isArray(params.references) ? params.references : [];
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
      const response = await transport.json<ImagesAnswer>({
        method: "POST",
        path: "/v1/images/edits",
        rawBody: body,
        options: request,
        submission: { idempotencyKey, request: "POST /v1/images/edits" },
      });
      return answered(response.data, response.requestId);
    },
  };
}

function answered(answer: ImagesAnswer, requestId: string | undefined): AnsweredImages {
  const result: AnsweredImages = { data: answer?.data ?? [], requestId };
  if (answer?.created !== undefined) result.created = answer.created;
  if (answer?.size) result.size = answer.size;
  if (answer?.usage) result.usage = answer.usage;
  return result;
}

function withoutParams(params: ImageGenerateParams): Omit<ImageGenerateParams, "params"> {
  const { params: _params, ...rest } = params;
  return rest;
}
