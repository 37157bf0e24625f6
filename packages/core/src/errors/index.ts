export { AmbiguousSubmissionError } from "./ambiguous-submission-error.js";
export { APIConnectionError } from "./api-connection-error.js";
export { APIError, type APIErrorFields } from "./api-error.js";
export { APITimeoutError } from "./api-timeout-error.js";
export { APIUserAbortError } from "./api-user-abort-error.js";
export { AuthenticationError } from "./authentication-error.js";
export { BadRequestError } from "./bad-request-error.js";
export { ConflictError } from "./conflict-error.js";
export {
  ERROR_CATEGORIES,
  type ErrorCategory,
  errorCategoryOf,
} from "./error-category.js";
export { InternalServerError } from "./internal-server-error.js";
export { InvalidProfileError } from "./invalid-profile-error.js";
export { InvalidRequestError, type RequestProblem } from "./invalid-request-error.js";
export { JSONResponseError } from "./json-response-error.js";
export { MissingConfigurationError } from "./missing-configuration-error.js";
export { NotFoundError } from "./not-found-error.js";
export { PermissionDeniedError } from "./permission-denied-error.js";
export { RateLimitError } from "./rate-limit-error.js";
export {
  ReelsmithError,
  type ReelsmithErrorInit,
  type ReelsmithErrorOptions,
} from "./reelsmith-error.js";
export { RequestUnsettledError } from "./request-unsettled-error.js";
export { StreamIdleTimeoutError } from "./stream-idle-timeout-error.js";
export { ToolRoundsExceededError } from "./tool-rounds-exceeded-error.js";
export { UnprocessableEntityError } from "./unprocessable-entity-error.js";
export { VideoJobFailedError } from "./video-job-failed-error.js";
export { VideoJobTimeoutError } from "./video-job-timeout-error.js";
