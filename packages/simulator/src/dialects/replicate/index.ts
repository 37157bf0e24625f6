import type { HttpError } from "../../errors/http-error.js";
import type { Route } from "../../server/context.js";
import { handleVideoContent } from "../../videos/handle-videos.js";
import type { SimulatorDialect } from "../simulator-dialect.js";
import {
  handleCancelPrediction,
  handleCreatePrediction,
  handleGetPrediction,
  handleListPredictions,
  predictionJson,
} from "./handle-predictions.js";

/** Replicate's predictions API, under `/v1` as at `https://api.replicate.com/v1`. */
const replicateRoutes: readonly Route[] = [
  {
    pattern: "/files/:id/:name",
    methods: { GET: handleVideoContent },
    faultRoute: "videos.content",
    public: true,
  },
  {
    pattern: "/v1/models/:owner/:name/predictions",
    methods: { POST: handleCreatePrediction },
    faultRoute: "videos.create",
  },
  {
    pattern: "/v1/predictions",
    methods: { POST: handleCreatePrediction, GET: handleListPredictions },
    faultRoute: "videos.create",
    faultRouteByMethod: { GET: "videos.list" },
  },
  {
    pattern: "/v1/predictions/:id",
    methods: { GET: handleGetPrediction },
    faultRoute: "videos.retrieve",
  },
  {
    pattern: "/v1/predictions/:id/cancel",
    methods: { POST: handleCancelPrediction },
    faultRoute: "videos.retrieve",
  },
];

const titles: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthenticated",
  403: "Forbidden",
  404: "Not found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Request Entity Too Large",
  422: "Input validation failed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * Replicate's problem details: `{ detail, status, title }`, and for a refused input a 422
 * with `invalid_fields: [{ type, field: "input.<name>", description }]`.
 */
function replicateError(error: HttpError): { status: number; body: unknown } {
  const param = error.param;
  const query = param !== null && ["cursor", "created_after", "created_before"].includes(param);
  if ((error.status === 400 || error.status === 422) && param !== null && !query) {
    const field = param === "version" ? param : `input.${param}`;
    return {
      status: 422,
      body: {
        detail: `- ${field}: ${error.message}\n`,
        status: 422,
        title: titles[422],
        invalid_fields: [{ type: error.code, field, description: error.message }],
      },
    };
  }
  const title = titles[error.status] ?? "Error";
  return { status: error.status, body: { detail: error.message, status: error.status, title } };
}

/**
 * Replicate: `POST /v1/models/{owner}/{name}/predictions` (or `POST /v1/predictions` with a
 * `version`), `GET /v1/predictions/{id}`, `GET /v1/predictions` (newest first, by cursor),
 * `POST /v1/predictions/{id}/cancel`, `Authorization: Bearer …`, output URLs that serve the
 * clip, problem-details errors. No idempotency key.
 */
export const replicateDialect: SimulatorDialect = {
  name: "replicate",
  authScheme: "Bearer",
  videoRoutes: replicateRoutes,
  imageField: "image",
  jobJson(job, { baseUrl }) {
    return predictionJson(job, { url: baseUrl() });
  },
  errorResponse: replicateError,
};
