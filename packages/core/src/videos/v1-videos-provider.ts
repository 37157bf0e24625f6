import { AmbiguousSubmissionError } from "../errors/ambiguous-submission-error.js";
import type { RequestOptions } from "../http/request-options.js";
import type {
  ProviderContext,
  SettledSubmission,
  UnsettledSubmission,
  VideoJobPage,
  VideoProvider,
} from "../providers/video-provider.js";
import { CREATED_SLACK_SECONDS, createdSeconds, matchesSubmission } from "./match-submission.js";
import { normalizeVideoJob } from "./normalize-job.js";
import type { ParamSpec, VideoCreateParams, VideoJob } from "./types.js";

/** A `POST /v1/videos` body: JSON (reference) or multipart bytes with their content type (openai). */
export type EncodedVideoRequest =
  | { json: Record<string, unknown> }
  | { multipart: { bytes: Uint8Array; contentType: string } };

/** What differs between the providers that speak the `/v1/videos` resource. */
export interface V1VideosDialect {
  name: string;
  description: string;
  keyEnv: string;
  defaultBaseURL?: string;
  /** The request's body in this dialect. */
  encode(
    params: VideoCreateParams,
    paramSpecs?: Readonly<Record<string, ParamSpec>>,
  ): Promise<EncodedVideoRequest>;
}

/**
 * A provider of the `/v1/videos` resource (the service interface's and OpenAI's shape):
 * `POST /v1/videos` with an `Idempotency-Key`, `GET /v1/videos/{id}`, `GET /v1/videos` (list,
 * newest first), `GET /v1/videos/{id}/content`, `DELETE /v1/videos/{id}`, Bearer auth. An
 * unsettled submission is settled by the key (when the profile says the service honours it),
 * else by the list matched on the request.
 *
 * @example
 * ```ts
 * export const referenceProvider = createV1VideosProvider({ name: "reference", description, keyEnv, encode });
 * ```
 */
export function createV1VideosProvider(dialect: V1VideosDialect): VideoProvider & {
  encode: V1VideosDialect["encode"];
} {
  const list = async (
    { transport }: ProviderContext,
    query: { limit?: number; after?: string; order?: "asc" | "desc" },
    request: RequestOptions,
  ): Promise<VideoJobPage> => {
    const search = new URLSearchParams();
    if (query.limit !== undefined) search.set("limit", String(query.limit));
    if (query.after !== undefined) search.set("after", query.after);
    if (query.order !== undefined) search.set("order", query.order);
    const suffix = search.size > 0 ? `?${search}` : "";
    const response = await transport.json<{ data?: unknown; has_more?: unknown }>({
      method: "GET",
      path: `/v1/videos${suffix}`,
      options: request,
    });
    const data = Array.isArray(response.data?.data) ? response.data.data : [];
    const jobs = data.map((item) => normalizeVideoJob(item));
    return { data: jobs, has_more: response.data?.has_more === true, last_id: jobs.at(-1)?.id };
  };

  const settle = async (
    context: ProviderContext,
    submission: UnsettledSubmission,
  ): Promise<SettledSubmission> => {
    const { idempotencyKey, sinceMs, params, request } = submission;
    const config = context.transport.config;
    if (config.honoursIdempotencyKeys) {
      return { via: "idempotency-key", jobs: [await submission.resend()] };
    }
    if (config.listsJobs === false) {
      throw new AmbiguousSubmissionError(idempotencyKey, { resolvable: false });
    }
    const found: VideoJob[] = [];
    let after: string | undefined;
    for (let page = 0; page < 50; page++) {
      let listed: VideoJobPage;
      try {
        listed = await list(
          context,
          { limit: 100, order: "desc", ...(after ? { after } : {}) },
          request,
        );
      } catch (error) {
        const status = (error as { status?: unknown }).status;
        if (status === 404 || status === 405 || status === 501) {
          throw new AmbiguousSubmissionError(idempotencyKey, { cause: error, resolvable: false });
        }
        throw error;
      }
      for (const job of listed.data) {
        const match = matchesSubmission(job, params, sinceMs);
        if (match === undefined)
          throw new AmbiguousSubmissionError(idempotencyKey, { resolvable: false });
        if (match) found.push(job);
      }
      const oldest = listed.data.at(-1);
      const created = oldest ? createdSeconds(oldest) : undefined;
      if (!listed.has_more || !listed.last_id) break;
      if (created !== undefined && created < sinceMs / 1000 - CREATED_SLACK_SECONDS) break;
      after = listed.last_id;
    }
    found.sort((a, b) => (createdSeconds(a) ?? 0) - (createdSeconds(b) ?? 0));
    return { via: "list", jobs: found };
  };

  return {
    name: dialect.name,
    description: dialect.description,
    keyEnv: dialect.keyEnv,
    ...(dialect.defaultBaseURL ? { defaultBaseURL: dialect.defaultBaseURL } : {}),
    settlement: ["idempotency-key", "list"],
    listsModels: true,
    idempotencyHeader: "idempotency-key",
    encode: dialect.encode,
    authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    // The request's fields are checked against the catalog by core; this shape adds none.
    validate: () => {},
    async submit({ transport }, { params, idempotencyKey, spec, request }) {
      const encoded = await dialect.encode(params, spec?.params);
      const response = await transport.json<unknown>({
        method: "POST",
        path: "/v1/videos",
        ...("json" in encoded ? { body: encoded.json } : { rawBody: encoded.multipart }),
        options: request,
        submission: { idempotencyKey },
      });
      return normalizeVideoJob(response.data);
    },
    async retrieve({ transport }, id, request) {
      const response = await transport.json<unknown>({
        method: "GET",
        path: `/v1/videos/${encodeURIComponent(id)}`,
        options: request,
      });
      return { job: normalizeVideoJob(response.data), headers: response.headers };
    },
    settle,
    list,
    contentURL: async (_context, id) => `/v1/videos/${encodeURIComponent(id)}/content`,
    async cancel({ transport }, id, request) {
      await transport.json<unknown>({
        method: "DELETE",
        path: `/v1/videos/${encodeURIComponent(id)}`,
        options: request,
      });
    },
  };
}
