// @reelsmith/media/errors: every error media throws, each a `MediaError` (a `ReelsmithError`
// of @reelsmith/core) with a stable `code` and a static `isInstance`.
// @example import { FfmpegError } from "@reelsmith/media/errors";
export * from "./errors/index.js";
