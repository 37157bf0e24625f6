import type { HttpError } from "../errors/http-error.js";
import type { VideoJobRecord } from "../videos/video-job.js";

/** What a dialect's job view may ask of the video service. */
export interface JobViewHelpers {
  /** 0–100 while running, 100 once completed. */
  progressOf(job: VideoJobRecord): number;
  /** The simulator's base URL (no `/v1`). */
  baseUrl(): string;
}

/**
 * How a dialect answers any request, whatever its route: its auth scheme, its job view and
 * its error bodies. The part of a {@link SimulatorDialect} that handlers and the video service
 * see through the simulator's context; the dialect's routes are already among the context's.
 *
 * @example
 * ```ts
 * const conventions: DialectConventions = simulatorDialect("fal"); // conventions.authScheme === "Key"
 * ```
 */
export interface DialectConventions {
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
  /** The name the reference image has in its requests (for error messages). */
  readonly imageField: string;
  /** A job as its `/v1/videos` routes answer it (dialects of other shapes answer in their own routes). */
  jobJson(job: VideoJobRecord, helpers: JobViewHelpers): Record<string, unknown>;
  /** Its error answer, when it is not the OpenAI-style `{ error: { message, type, param, code } }`. */
  errorResponse?(error: HttpError): { status: number; body: unknown };
}
