import { APIError } from "../errors/api-error.js";
import type { RequestOptions } from "../http/request-options.js";
import type { Transport } from "../http/transport.js";
import type { Model } from "./types.js";

/** Accepts `{ object: "list", data: [...] }`, `{ models: [...] }` or a bare array; strings become `{ id }`. */
export function normalizeModelList(body: unknown): Model[] {
  const list = Array.isArray(body)
    ? body
    : body && typeof body === "object" && Array.isArray((body as { data?: unknown }).data)
      ? (body as { data: unknown[] }).data
      : body && typeof body === "object" && Array.isArray((body as { models?: unknown }).models)
        ? (body as { models: unknown[] }).models
        : undefined;
  if (!list)
    throw new APIError("The model list has an unknown shape.", { code: "invalid_response" });
  return list.flatMap((item): Model[] => {
    if (typeof item === "string") return [{ id: item }];
    if (item && typeof item === "object" && typeof (item as { id?: unknown }).id === "string")
      return [item as Model];
    return [];
  });
}

/**
 * `client.models`: the models usable in chat completion (spec 4.5).
 *
 * @example
 * ```ts
 * const ids = (await client.models.list()).map((model) => model.id);
 * ```
 */
export class Models {
  readonly #transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** `GET /v1/models`, in either list shape. */
  async list(options: RequestOptions = {}): Promise<Model[]> {
    const response = await this.#transport.json<unknown>({
      method: "GET",
      path: "/v1/models",
      options,
    });
    return normalizeModelList(response.data);
  }
}
