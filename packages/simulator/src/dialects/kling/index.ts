import { randomUUID } from "node:crypto";
import type { Route } from "../../server/context.js";
import { handleVideoContent } from "../../videos/handle-videos.js";
import type { SimulatorDialect } from "../simulator-dialect.js";
import { handleKlingSubmit, handleKlingTask } from "./handle-kling-tasks.js";
import { checkKlingToken } from "./kling-auth.js";

const actions = "(text2video|image2video)";

const klingRoutes: readonly Route[] = [
  {
    pattern: "/files/:id/:name",
    methods: { GET: handleVideoContent },
    faultRoute: "videos.content",
    public: true,
  },
  {
    pattern: "/v1/videos/{action}",
    match: (pathname) => {
      const found = new RegExp(`^/v1/videos/${actions}/?$`).exec(pathname);
      return found ? { action: found[1] ?? "" } : undefined;
    },
    methods: { POST: handleKlingSubmit },
    faultRoute: "videos.create",
  },
  {
    pattern: "/v1/videos/{action}/{id}",
    match: (pathname) => {
      const found = new RegExp(`^/v1/videos/${actions}/([^/]+)$`).exec(pathname);
      return found ? { action: found[1] ?? "", id: decodeURIComponent(found[2] ?? "") } : undefined;
    },
    methods: { GET: handleKlingTask },
    faultRoute: "videos.retrieve",
  },
];

/** Kling's error code for a refusal the simulator's shared code makes (by its HTTP status). */
function codeOf(status: number, code: string): number {
  const own = /^kling_(\d+)$/.exec(code);
  if (own) return Number(own[1]);
  if (status === 401) return 1000;
  if (status === 403) return 1103;
  if (status === 404) return 1203;
  if (status === 429) return 1302;
  if (status === 503) return 5001;
  if (status === 504) return 5002;
  if (status >= 500) return 5000;
  return 1201;
}

/**
 * Kling's API: `POST /v1/videos/{text2video,image2video}` with `external_task_id` (unique per
 * account), `GET /v1/videos/{action}/{task_id or external_task_id}`, results at
 * `task_result.videos[].url`, an HS256 JWT from the access key and the secret key (the
 * simulator's key is `<access key>:<secret key>`), errors as `{ code, message, request_id }`.
 */
export const klingDialect: SimulatorDialect = {
  name: "kling",
  authScheme: "Bearer",
  authorize: checkKlingToken,
  videoRoutes: klingRoutes,
  imageField: "image",
  jobJson(job) {
    return { task_id: job.id, task_status: job.status };
  },
  errorResponse(error) {
    return {
      status: error.status,
      body: {
        code: codeOf(error.status, error.code),
        message: error.message,
        request_id: randomUUID(),
      },
    };
  },
};
