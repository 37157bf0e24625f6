import { randomUUID } from "node:crypto";
import type { VideoModelSpec } from "@reelsmith/core/catalog";
import { HttpError } from "../../errors/http-error.js";
import type { RequestContext, RouteHandler, SimulatorContext } from "../../server/context.js";
import type { ReceivedVideoRequest } from "../../videos/received-video-request.js";
import { validateVideoRequest } from "../../videos/validate-video-request.js";
import type { VideoJobRecord } from "../../videos/video-job.js";

/** Each simulator's tasks by `external_task_id` (unique per account, as Kling keeps it). */
const externalIds = new WeakMap<object, Map<string, string>>();

function externalIdsOf(simulator: SimulatorContext): Map<string, string> {
  let ids = externalIds.get(simulator.videos);
  if (!ids) {
    ids = new Map();
    externalIds.set(simulator.videos, ids);
  }
  return ids;
}

/** A Kling refusal: the HTTP status Kling answers with and its code. */
export function klingRefusal(status: number, code: number, message: string, param?: string) {
  return new HttpError(status, message, { code: `kling_${code}`, param: param ?? null });
}

const sizeOfRatio: Readonly<Record<string, string>> = {
  "16:9": "1280x720",
  "9:16": "720x1280",
  "1:1": "720x720",
};

function ratioOf(size: string): string {
  const [width = 1, height = 1] = size.split("x").map(Number);
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
}

/** The size a clip of `aspect_ratio` renders at: the model's size of that ratio, else 720p. */
function sizeFor(ratio: unknown, spec: VideoModelSpec | undefined): string {
  const fallback = typeof ratio === "string" ? sizeOfRatio[ratio] : undefined;
  if (fallback === undefined) {
    throw klingRefusal(
      400,
      1201,
      `aspect_ratio must be 16:9, 9:16 or 1:1; got ${JSON.stringify(ratio)}.`,
      "aspect_ratio",
    );
  }
  const sizes = spec?.sizes;
  if (Array.isArray(sizes)) {
    return (sizes as readonly string[]).find((size) => ratioOf(size) === ratio) ?? fallback;
  }
  return fallback;
}

/** Kling's own fields; the others are the model's params, checked against the catalog. */
const klingOwnFields = new Set([
  "model_name",
  "prompt",
  "duration",
  "aspect_ratio",
  "image",
  "external_task_id",
  "callback_url",
]);

/** Kling's body as the body the simulator's video check reads (model, seconds, size, image_url). */
function asVideoBody(input: Record<string, unknown>, spec: VideoModelSpec | undefined) {
  const body: Record<string, unknown> = { model: input.model_name, prompt: input.prompt };
  const duration = input.duration ?? "5";
  if (duration !== "5" && duration !== "10") {
    throw klingRefusal(
      400,
      1201,
      `duration must be "5" or "10"; got ${JSON.stringify(duration)}.`,
      "duration",
    );
  }
  body.seconds = duration;
  body.size = sizeFor(input.aspect_ratio ?? "16:9", spec);
  if (typeof input.image === "string") {
    body.image_url = /^https?:\/\//i.test(input.image)
      ? input.image
      : `data:image/png;base64,${input.image}`;
  }
  for (const [name, value] of Object.entries(input)) {
    if (!klingOwnFields.has(name)) body[name] = value;
  }
  return body;
}

function taskJson(simulator: SimulatorContext, job: VideoJobRecord, action: string) {
  const states = {
    pending: "submitted",
    processing: "processing",
    completed: "succeed",
    failed: "failed",
  };
  const external = [...externalIdsOf(simulator)].find(([, id]) => id === job.id)?.[0];
  const json: Record<string, unknown> = {
    task_id: job.id,
    task_status: states[job.status],
    task_status_msg: job.status === "failed" ? (job.error?.message ?? "Task failed") : "",
    task_info: external === undefined ? {} : { external_task_id: external },
    created_at: job.createdMs,
    updated_at: job.completedAt === undefined ? job.createdMs : job.completedAt * 1000,
  };
  if (job.status === "completed") {
    json.task_result = {
      videos: [
        {
          id: `${job.id}-0`,
          url: `${simulator.url}/files/${job.id}/${action}.mp4`,
          duration: String(job.request.seconds),
        },
      ],
    };
  }
  return json;
}

function ok(data: unknown) {
  return { code: 0, message: "SUCCEED", request_id: randomUUID(), data };
}

/**
 * `POST /v1/videos/text2video` and `/v1/videos/image2video`: a task (charged when it
 * succeeds). A second task with an `external_task_id` already used is refused (1201), as
 * Kling refuses it; image2video wants `image`, text2video takes none.
 */
export const handleKlingSubmit: RouteHandler = async (context, simulator) => {
  const action = context.params.action ?? "";
  const input = await context.readJson();
  const received: ReceivedVideoRequest = {
    contentType: "application/json",
    fields: { ...input },
    files: [],
  };
  simulator.received.push(received);
  let job: VideoJobRecord;
  try {
    const external = input.external_task_id;
    if (external !== undefined && (typeof external !== "string" || external === "")) {
      throw klingRefusal(
        400,
        1201,
        "external_task_id must be a non-empty string.",
        "external_task_id",
      );
    }
    if (typeof external === "string" && externalIdsOf(simulator).has(external)) {
      throw klingRefusal(
        400,
        1201,
        `external_task_id ${external} already exists: it must be unique per account.`,
        "external_task_id",
      );
    }
    if (action === "image2video" && typeof input.image !== "string") {
      throw klingRefusal(400, 1201, "image is required for image2video.", "image");
    }
    if (action === "text2video" && input.image !== undefined) {
      throw klingRefusal(400, 1201, "text2video takes no image: use image2video.", "image");
    }
    const model = input.model_name;
    const spec = simulator.catalog.videoModels.find((candidate) => candidate.id === model);
    if (!spec) {
      throw klingRefusal(
        400,
        1201,
        `model_name ${JSON.stringify(model)} is not a model this account can use.`,
        "model_name",
      );
    }
    const request = validateVideoRequest(asVideoBody(input, spec), {
      catalog: simulator.catalog.videoModels,
      imageField: "image",
    });
    job = simulator.videos.create(request, undefined).job;
    if (typeof external === "string") externalIdsOf(simulator).set(external, job.id);
  } catch (error) {
    received.status = HttpError.isInstance(error) ? error.status : 500;
    throw error;
  }
  received.status = 200;
  await context.send(200, ok(taskJson(simulator, job, action)));
};

/** The task of `GET /v1/videos/{action}/{id}`: `id` is its task_id or its external_task_id. */
function findTask(context: RequestContext, simulator: SimulatorContext): VideoJobRecord {
  const { id = "" } = context.params;
  const job =
    simulator.videos.get(id) ?? simulator.videos.get(externalIdsOf(simulator).get(id) ?? "");
  if (!job) throw klingRefusal(404, 1203, `Task ${id} does not exist.`);
  return job;
}

/** `GET /v1/videos/{action}/{id}`: the task's state, and its videos once it succeeded. */
export const handleKlingTask: RouteHandler = async (context, simulator) => {
  const job = findTask(context, simulator);
  await context.send(200, ok(taskJson(simulator, job, context.params.action ?? "text2video")));
};
