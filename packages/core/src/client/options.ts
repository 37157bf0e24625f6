import type { Dispatcher } from "undici";
import type { SpeechModelSpec } from "../audio/speech-model-spec.js";
import type { TranscriptionModelSpec } from "../audio/transcription-model-spec.js";
import type { FetchFunction } from "../http/fetch-request.js";
import type { Logger, OutgoingRequest } from "../http/transport-config.js";
import type { ImageModelSpec } from "../images/image-model-spec.js";
import type { VideoModelCatalog } from "../videos/types.js";
import type { VideoDialect } from "../videos/video-dialect.js";

/** Options of `createClient()`. */
export interface ClientOptions {
  /** Service address without `/v1` (one trailing `/v1` is stripped). Else `REELSMITH_BASE_URL`, else `OPENAI_BASE_URL`. */
  baseURL?: string;
  /** Else `REELSMITH_API_KEY`, else `OPENAI_API_KEY`. */
  apiKey?: string;
  /** Per attempt, connection + headers + body (default 60 000). For streams it covers up to the headers; then `streamIdleTimeoutMs` applies. */
  timeoutMs?: number;
  /** Longest silence allowed between two chunks of a stream or download (default 30 000). */
  streamIdleTimeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Cap for a server's `retry-after` / `retry-after-ms` (default 60 000). */
  maxRetryDelayMs?: number;
  /** First back-off delay; doubles per retry (default 500). */
  retryBaseDelayMs?: number;
  /** Cap of the exponential back-off (default 8 000). */
  retryMaxBackoffMs?: number;
  /** Video poll interval (default 5 000, plus up to 10% jitter either way). */
  pollIntervalMs?: number;
  /** undici dispatcher (Agent, ProxyAgent, MockAgent…) used for every request. */
  dispatcher?: Dispatcher;
  /**
   * A `fetch` to send every request with instead of undici's `request()` (the default, and
   * the faster path): the global `fetch` wrapped by msw or nock, or undici's `fetch` with a
   * `MockAgent`, so tests can intercept the client's requests. Retries, timeouts, errors and
   * redaction work the same; redirects are followed by the client, not by the fetch.
   */
  fetch?: FetchFunction;
  logger?: Logger;
  /**
   * Video models `videos.create()` checks requests against before sending (model known,
   * seconds, size, image, provider params), e.g. `videoCatalogFromProfile(profile)`. Default
   * none: only the request's shape is checked and the service decides.
   */
  videoModels?: VideoModelCatalog | null;
  /**
   * Image, speech and transcription models the client checks requests against before sending
   * (sizes, `n`, references, voices, formats, word timestamps), e.g.
   * `imageModelsFromProfile(profile)`. Default none: the service decides.
   */
  imageModels?: readonly ImageModelSpec[] | null;
  speechModels?: readonly SpeechModelSpec[] | null;
  transcriptionModels?: readonly TranscriptionModelSpec[] | null;
  /**
   * How the video API speaks: `reference` (the service interface: JSON body, default) or
   * `openai` (OpenAI's `/v1/videos`: multipart body with `input_reference` as a file).
   */
  dialect?: VideoDialect;
  /** Extra headers sent with every request to the service. */
  defaultHeaders?: Record<string, string>;
  /**
   * The service answers a repeated `Idempotency-Key` with the job it already created (the
   * simulator does). `videos.resolveSubmission()` then sends an ambiguous submission again
   * with its key; otherwise it looks for the job in `GET /v1/videos`. Default false.
   */
  honoursIdempotencyKeys?: boolean;
  /**
   * Whether `GET /v1/videos` lists the account's jobs, so `videos.resolveSubmission()` can
   * look an ambiguous submission up there. Default: try it (a 404/405/501 means no); `false`
   * never lists.
   */
  listsJobs?: boolean;
  /**
   * Called right before each attempt of each request leaves (after any back-off), with its
   * method and path; a rejection stops the request unsent and is thrown to the caller. A host
   * that may lose the right to send (a worker whose unit another worker took over) checks it
   * here, as late as possible.
   */
  beforeRequest?: (request: OutgoingRequest) => void | Promise<void>;
  /** Environment to read the fallbacks from (default `process.env`). */
  env?: Record<string, string | undefined>;
}
