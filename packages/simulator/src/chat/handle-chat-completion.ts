import type { RouteHandler } from "../server/context.js";

/** `POST /v1/chat/completions`. */
export const handleChatCompletion: RouteHandler = async (context) => {
  await context.send(501, {});
};
