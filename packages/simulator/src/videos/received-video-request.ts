/**
 * A file part of a multipart video request, as received.
 * @example const part: ReceivedFile = { field: "input_reference", filename: "a.png", contentType: "image/png", bytes: 68, sha256 };
 */
export interface ReceivedFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: number;
  sha256: string;
}

/**
 * One `POST /v1/videos` body as the simulator received it, before any check: the JSON fields
 * (or the multipart text fields) and each file part's name, type, length and sha256. Tests read
 * them through the simulator's `videoRequests()`.
 *
 * @example
 * const [first] = simulator.videoRequests();
 * first?.files.map((file) => file.field); // ["input_reference"]
 */
export interface ReceivedVideoRequest {
  /** `application/json` or `multipart/form-data` (without the boundary). */
  contentType: string;
  idempotencyKey?: string;
  fields: Record<string, unknown>;
  files: ReceivedFile[];
  /** The status the simulator answered with (set once it has decided). */
  status?: number;
}
