import type { Route } from "../../server/context.js";
import { handleVideoContent } from "../../videos/handle-videos.js";
import type { SimulatorDialect } from "../simulator-dialect.js";
import { falFieldNames } from "./fal-input.js";
import { handleFalAudioFile } from "./fal-speech-requests.js";
import {
  handleFalCancel,
  handleFalResult,
  handleFalStatus,
  handleFalSubmit,
} from "./handle-fal-queue.js";

/** Paths the shared routes own: never an endpoint id. */
const reserved = /^\/(v1|_simulator|files|fal-cdn)(\/|$)/;
const segment = "[A-Za-z0-9][\\w.-]*";

function matcher(pattern: RegExp, names: readonly string[]) {
  return (pathname: string) => {
    const found = pattern.exec(pathname);
    if (!found) return undefined;
    return Object.fromEntries(
      names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? "")]),
    );
  };
}

const requestPath = `^/(${segment}(?:/${segment})+?)/requests/([^/]+)`;

/** fal's queue, at the root of the simulator as at `https://queue.fal.run`. */
const falRoutes: readonly Route[] = [
  {
    pattern: "/files/:id/:name",
    methods: { GET: handleVideoContent },
    faultRoute: "videos.content",
    public: true,
  },
  {
    pattern: "/fal-cdn/audio/:name",
    methods: { GET: handleFalAudioFile },
    faultRoute: "videos.content",
    public: true,
  },
  {
    pattern: "/{app}/requests/{id}/status",
    match: matcher(new RegExp(`${requestPath}/status$`), ["app", "id"]),
    methods: { GET: handleFalStatus },
    faultRoute: "videos.retrieve",
  },
  {
    pattern: "/{app}/requests/{id}/cancel",
    match: matcher(new RegExp(`${requestPath}/cancel$`), ["app", "id"]),
    methods: { PUT: handleFalCancel },
    faultRoute: "videos.retrieve",
  },
  {
    pattern: "/{app}/requests/{id}",
    match: matcher(new RegExp(`${requestPath}$`), ["app", "id"]),
    methods: { GET: handleFalResult },
    faultRoute: "videos.retrieve",
  },
  {
    pattern: "/{endpoint}",
    match: (pathname) => {
      if (reserved.test(pathname) || pathname.includes("/requests/")) return undefined;
      return matcher(new RegExp(`^/(${segment}(?:/${segment})+)/?$`), ["endpoint"])(pathname);
    },
    methods: { POST: handleFalSubmit },
    faultRoute: "videos.create",
  },
];

/**
 * fal's queue: `POST /{endpoint}` with the model's input (a video model's, or an image
 * model's such as FLUX: `prompt`, `image_size`, `num_images`, answered with `images[]`; or a speech endpoint's, Kokoro's `prompt` or ElevenLabs' `text` with `voice`, answered with `audio`), `GET …/requests/{id}/status`,
 * `GET …/requests/{id}`, `PUT …/requests/{id}/cancel`, `Authorization: Key …`, FastAPI's
 * `{ detail }` errors (422 with `loc` for a refused field). No idempotency key.
 */
export const falDialect: SimulatorDialect = {
  name: "fal",
  authScheme: "Key",
  videoRoutes: falRoutes,
  imageField: "image_url",
  jobJson(job) {
    return { request_id: job.id, status: job.status };
  },
  errorResponse(error) {
    if ((error.status === 400 || error.status === 422) && error.param !== null) {
      const field = falFieldNames[error.param] ?? error.param;
      return {
        status: 422,
        body: { detail: [{ loc: ["body", field], msg: error.message, type: error.code }] },
      };
    }
    return { status: error.status, body: { detail: error.message } };
  },
};
