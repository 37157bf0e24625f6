import type { HttpError } from "../errors/http-error.js";
import type { Route } from "../server/context.js";
import type { VideoJobRecord } from "../videos/video-service.js";

/** What a dialect's job view may ask of the video service. */
export interface JobViewHelpers {
  /** 0–100 while running, 100 once completed. */
  progressOf(job: VideoJobRecord): number;
  /** The simulator's base URL (no `/v1`). */
  baseUrl(): string;
}

/**
 * How the simulator speaks one provider (a name of core's provider registry): its video
 * routes, its auth scheme, its job view and its error bodies. One folder per dialect under
 * `dialects/`, one line in `dialects/registry.ts`.
 *
 * @example
 * ```ts
 * const dialect = simulatorDialect("fal"); // dialect.authScheme === "Key"
 * ```
 */
export interface SimulatorDialect {
  readonly name: string;
  /** The scheme of the `Authorization` header every route wants (`Bearer`, `Key`). */
  readonly authScheme: string;
  /**
   * Its own check of a request's `Authorization` (a signed token rather than the key itself),
   * throwing a 401 `HttpError`; without it, `<authScheme> <key>` is compared with the key.
   */
  authorize?(header: string | undefined, apiKey: string): void;
  /** A header that carries the bare key instead of `Authorization` (`xi-api-key`). */
  readonly authHeader?: string;
  /** Its own routes, matched before the shared ones (a provider's own `GET /v1/models`). */
  readonly routes?: readonly Route[];
  /** The routes of its video API (matched after the shared chat, models, image and audio routes). */
  readonly videoRoutes: readonly Route[];
  /** The name the reference image has in its requests (for error messages). */
  readonly imageField: string;
  /** A job as its `/v1/videos` routes answer it (dialects of other shapes answer in their own routes). */
  jobJson(job: VideoJobRecord, helpers: JobViewHelpers): Record<string, unknown>;
  /** Its error answer, when it is not the OpenAI-style `{ error: { message, type, param, code } }`. */
  errorResponse?(error: HttpError): { status: number; body: unknown };
}
