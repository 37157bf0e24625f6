import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { HttpError } from "../errors/http-error.js";
import type { RouteHandler } from "../server/context.js";
import { readVideoBody } from "./read-video-body.js";
import { type VideoRequest, validateVideoRequest } from "./validate-video-request.js";
import type { VideoJobRecord } from "./video-job.js";

function pollHeaders(hint: number | undefined): Record<string, string> {
  return hint === undefined ? {} : { "openai-poll-after-ms": String(hint) };
}

function findJob(
  id: string | undefined,
  find: (id: string) => VideoJobRecord | undefined,
): VideoJobRecord {
  const job = id ? find(id) : undefined;
  if (!job)
    throw new HttpError(404, `No video job found with id '${id}'.`, {
      param: "video_id",
      code: "video_not_found",
    });
  return job;
}

/**
 * `POST /v1/videos` (JSON or multipart): record what was received, validate it against the
 * model's spec, create the job (or replay it by Idempotency-Key).
 */
export const handleCreateVideo: RouteHandler = async (context, simulator) => {
  const { body, multipart, received } = await readVideoBody(context, simulator.maxBodyBytes);
  simulator.received.push(received);
  let request: VideoRequest;
  let created: ReturnType<typeof simulator.videos.create>;
  try {
    request = validateVideoRequest(body, {
      catalog: simulator.catalog.videoModels,
      multipart,
      imageField: simulator.videoDialect.imageField,
    });
    created = simulator.videos.create(
      request,
      simulator.honoursIdempotencyKeys ? received.idempotencyKey : undefined,
    );
  } catch (error) {
    received.status = HttpError.isInstance(error) ? error.status : 500;
    throw error;
  }
  received.status = 200;
  const { job, replayed } = created;
  const headers = pollHeaders(simulator.videos.pollAfter(job));
  if (replayed) headers["idempotent-replayed"] = "true";
  await context.send(200, simulator.videos.toJson(job), headers);
};

/** `GET /v1/videos/{id}`: the job in its current state, with the poll hint while running. */
export const handleRetrieveVideo: RouteHandler = async (context, simulator) => {
  const job = findJob(context.params.id, simulator.videos.get);
  await context.send(
    200,
    simulator.videos.toJson(job),
    pollHeaders(simulator.videos.pollAfter(job)),
  );
};

/** `GET /v1/videos/{id}/content`: the MP4 of a completed job (409 before completion). */
export const handleVideoContent: RouteHandler = async (context, simulator) => {
  const job = findJob(context.params.id, simulator.videos.get);
  let file: string;
  try {
    file = await simulator.videos.content(job);
  } catch (error) {
    if (HttpError.isInstance(error) || context.signal.aborted) throw error;
    throw new HttpError(500, "Rendering the video failed; try the download again.", {
      code: "render_failed",
    });
  }
  const { size } = await stat(file);
  if (!(await context.beforeRespond())) return;
  context.response.writeHead(200, {
    "content-type": "video/mp4",
    "content-length": size,
    "content-disposition": `inline; filename="${job.id}.mp4"`,
  });
  try {
    await pipeline(createReadStream(file), context.response);
  } catch {
    // The client went away mid-download; the close handler records it.
  }
};

/**
 * `GET /v1/videos?limit&after&order`: the jobs, newest first by default, in openai's list
 * shape (`data`, `first_id`, `last_id`, `has_more`); `after` is the id to continue after.
 */
export const handleListVideos: RouteHandler = async (context, simulator) => {
  const query = new URL(context.request.url ?? "/", "http://simulator").searchParams;
  const limit = Number(query.get("limit") ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new HttpError(400, "limit must be a whole number from 1 to 100.", { param: "limit" });
  const order = query.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc")
    throw new HttpError(400, "order must be asc or desc.", { param: "order" });
  let jobs = simulator.videos.list();
  if (order === "desc") jobs.reverse();
  const after = query.get("after");
  if (after) {
    const at = jobs.findIndex((job) => job.id === after);
    if (at < 0)
      throw new HttpError(400, `No video job found with id '${after}'.`, { param: "after" });
    jobs = jobs.slice(at + 1);
  }
  const page = jobs.slice(0, limit).map((job) => simulator.videos.toJson(job));
  await context.send(200, {
    object: "list",
    data: page,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
    has_more: jobs.length > limit,
  });
};
