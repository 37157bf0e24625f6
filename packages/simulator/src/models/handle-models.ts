import { type ChatModelInfo, modelsCreated } from "../catalog/chat-models.js";
import { HttpError } from "../errors/http-error.js";
import type { RouteHandler, SimulatorContext } from "../server/context.js";

function chatModelObject(model: ChatModelInfo) {
  return {
    id: model.id,
    object: "model" as const,
    created: modelsCreated,
    owned_by: "reelsmith-simulator",
    description: model.description,
    capabilities: { images: model.images, tools: model.tools, json: model.json, streaming: true },
    context_window: model.contextWindow,
  };
}

/** Every model entry `/v1/models` lists: the chat models, then the video models of a profile. */
function modelObjects(simulator: SimulatorContext) {
  const video = simulator.catalog.videoEntries.map((entry) => ({
    id: entry.id,
    object: "model" as const,
    created: modelsCreated,
    owned_by: "reelsmith-simulator",
    type: "video",
    video: entry.video,
  }));
  return [...simulator.catalog.chatModels.map(chatModelObject), ...video];
}

/**
 * `GET /v1/models`: `{ object: "list", data: [...] }` of the chat models, and, when serving a
 * profile, its video models as `{ id, object: "model", owned_by, type: "video", video: { seconds,
 * sizes, image, params, price } }` (the profile's own snake_case fields; null where unknown).
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
