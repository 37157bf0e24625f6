import type { APIError } from "../errors/api-error.js";

/**
 * How every side of a provider authenticates and keys its requests, and what it is (the
 * transport's view: every side of one provider shares its key and its header).
 */
export interface ProviderAccess {
  /** The name a profile's `service.dialect` and `serve --dialect` use. */
  readonly name: string;
  /** One line for help texts and the profile schema. */
  readonly description: string;
  /** The environment variable its key is usually in (for docs and starter profiles). */
  readonly keyEnv: string;
  /**
   * When its key has several parts (an access key and a secret key), the variables of each
   * part, in order: a profile's `api_key_env` then names one variable per part, and the key
   * core is given is their values joined by `:`.
   */
  readonly keyParts?: readonly string[];
  /** Its usual base URL, when it has one. */
  readonly defaultBaseURL?: string;
  /**
   * Whether the provider lists its models with their kinds (`GET /v1/models`, as the service
   * interface does): `models` and `models --write-config` then read them from the service;
   * otherwise they write a starter profile with the models the user names.
   */
  readonly listsModels?: boolean;
  /** The headers that carry the key (`Authorization: Bearer …`, `Authorization: Key …`). */
  authHeaders(apiKey: string): Record<string, string>;
  /**
   * The header that carries the caller's idempotency key, or undefined when the provider
   * honours none: then a paid request is never resent on an answer (only on a 429, or when it
   * cannot have left).
   */
  readonly idempotencyHeader: string | undefined;
  /**
   * Its own reading of an error answer (codes in the body that say more than the HTTP
   * status); undefined falls back to core's mapping by status.
   */
  errorFromResponse?(
    status: number,
    bodyText: string,
    requestId: string | undefined,
    redact: (text: string) => string,
  ): APIError | undefined;
}

/** A provider's access fields, copied (a side shares its provider's key and header). */
export function accessOf(access: ProviderAccess): ProviderAccess {
  return {
    name: access.name,
    description: access.description,
    keyEnv: access.keyEnv,
    ...(access.keyParts ? { keyParts: access.keyParts } : {}),
    ...(access.defaultBaseURL ? { defaultBaseURL: access.defaultBaseURL } : {}),
    ...(access.listsModels ? { listsModels: access.listsModels } : {}),
    authHeaders: (apiKey) => access.authHeaders(apiKey),
    idempotencyHeader: access.idempotencyHeader,
    ...(access.errorFromResponse ? { errorFromResponse: access.errorFromResponse } : {}),
  };
}
