import type { FileInput } from "../media-files/file-input.js";

/** Parameters of `client.images.generate()` (`POST /v1/images/generations`). */
export interface ImageGenerateParams {
  model: string;
  prompt: string;
  /** `WIDTHxHEIGHT` (or `auto`); default: the model's. */
  size?: string;
  /** Images to make (default 1). */
  n?: number;
  quality?: string;
  /** `b64_json` (default here: the images come in the answer) or `url`. */
  response_format?: "url" | "b64_json";
  user?: string;
  /** Provider fields sent as they are (e.g. `background`, `style`). */
  params?: Record<string, string | number | boolean>;
}

/** Parameters of `client.images.edit()` (`POST /v1/images/edits`, multipart). */
export interface ImageEditParams extends ImageGenerateParams {
  /** Reference images, sent as `image[]`: file paths, bytes (Buffer) or Blobs. At least one. */
  references: readonly FileInput[];
}

/** One image of an answer. */
export interface GeneratedImage {
  /** The PNG (or other) bytes: decoded from `b64_json`, or downloaded from `url`. */
  bytes: Uint8Array;
  /** Where it was saved, when `to` was given. */
  file?: string;
  /** The service's address of it, when it answered with a `url`. */
  url?: string;
  /** The prompt as the model rewrote it, when it says. */
  revised_prompt?: string;
}

/** What `client.images.generate()` and `edit()` give back. */
export interface ImageResult {
  created: number;
  images: GeneratedImage[];
  /** The files written, in order, when `to` was given. */
  files: string[];
  /** The first image's revised prompt, if any. */
  revised_prompt?: string;
  size?: string;
  usage?: Record<string, unknown>;
  requestId: string | undefined;
}
