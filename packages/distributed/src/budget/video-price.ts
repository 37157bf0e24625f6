/** What a learnt price is kept under: the service, the model, the size and the length. */
export interface PriceKind {
  service: string;
  model: string;
  /** The requested size, or "" when the model's default was left to it. */
  size: string;
  /** The requested length in seconds, or "" when the model's default was left to it. */
  seconds: string;
}

/**
 * The kind of job a request makes, for prices learnt from completed jobs: requests of one
 * kind cost the same.
 * @example priceKind("3f2a…", { model: "m", size: "1280x720", seconds: "4" }) // { service: "3f2a…", model: "m", size: "1280x720", seconds: "4" }
 */
export function priceKind(service: string, request: Record<string, unknown>): PriceKind {
  const seconds = Number(request.seconds);
  return {
    service,
    model: String(request.model ?? ""),
    size: typeof request.size === "string" ? request.size : "",
    seconds: request.seconds === undefined || !Number.isFinite(seconds) ? "" : String(seconds),
  };
}
