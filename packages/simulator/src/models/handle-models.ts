import { type ChatModelInfo, modelsCreated } from "../catalog/chat-models.js";
import { HttpError } from "../errors/http-error.js";
import type { RouteHandler, SimulatorContext } from "../server/context.js";

function chatModelObject(model: ChatModelInfo) {
  return {
    id: model.id,
    object: "model" as const,
    created: modelsCreated,
    owned_by: "reelsmith-simulator",
    type: "chat",
    description: model.description,
    capabilities: { images: model.images, tools: model.tools, json: model.json, streaming: true },
    context_window: model.contextWindow,
  };
}

/**
 * Every model entry `/v1/models` lists: the chat models, then the video, image, speech and
 * transcription models (the simulator's own, or a profile's), each with its `type`.
 */
function modelObjects(simulator: SimulatorContext) {
  const video = simulator.catalog.videoEntries.map((entry) => ({
    id: entry.id,
    object: "model" as const,
    created: modelsCreated,
    owned_by: "reelsmith-simulator",
    type: "video",
    video: entry.video,
  }));
  const media = simulator.catalog.mediaEntries.map(({ id, ...limits }) => ({
    id,
    object: "model" as const,
    created: modelsCreated,
    owned_by: "reelsmith-simulator",
    ...limits,
  }));
  return [...simulator.catalog.chatModels.map(chatModelObject), ...video, ...media];
}

/**
 * `GET /v1/models`: `{ object: "list", data: [...] }` in OpenAI's list shape, each entry with
 * its `type`: the chat models (`type: "chat"`, `capabilities`, `context_window`), the video
 * models as `{ id, object: "model", created, owned_by, type: "video", video: { seconds, sizes,
 * image, params, price } }`, and the image, speech and transcription models likewise under
 * `image: { sizes, max_references, max_images, price }`, `speech: { voices, formats, price }`
 * and `transcription: { word_timestamps, granularities, formats, price }` (a profile's own
 * snake_case fields; null where unknown).
 */
export const handleListModels: RouteHandler = async (context, simulator) => {
  await context.send(200, { object: "list", data: modelObjects(simulator) });
};

/** `GET /v1/models/{id}`: one model, 404 when unknown. */
export const handleRetrieveModel: RouteHandler = async (context, simulator) => {
  const model = modelObjects(simulator).find((candidate) => candidate.id === context.params.id);
  if (!model) {
    throw new HttpError(404, `The model '${context.params.id}' does not exist`, {
      param: "model",
      code: "model_not_found",
    });
  }
  await context.send(200, model);
};
