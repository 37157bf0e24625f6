import { chatModels, modelsCreated } from "../catalog/chat-models.js";
import { HttpError } from "../errors/http-error.js";
import type { RouteHandler } from "../server/context.js";

function modelObject(model: (typeof chatModels)[number]) {
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

/** `GET /v1/models`: `{ object: "list", data: [...] }` of the chat models. */
export const handleListModels: RouteHandler = async (context) => {
  await context.send(200, { object: "list", data: chatModels.map(modelObject) });
};

/** `GET /v1/models/{id}`: one chat model, 404 when unknown. */
export const handleRetrieveModel: RouteHandler = async (context) => {
  const model = chatModels.find((candidate) => candidate.id === context.params.id);
  if (!model) {
    throw new HttpError(404, `The model '${context.params.id}' does not exist`, {
      param: "model",
      code: "model_not_found",
    });
  }
  await context.send(200, modelObject(model));
};
